-- An approval settled by a second client: `eukhe approvals` attached to
-- the server answers y while Neovim's dialog is open; the server tells
-- Neovim (eukhe/approvalSettled), the plugin drops its question, and the
-- button the scripted user presses afterwards (Deny) does not count.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.bin })
  h.client(h.open('a.txt'))
  h.socket()

  local term = ''
  local approvals = vim.fn.jobstart({ h.bin, 'approvals', '--root', h.root }, {
    cwd = h.root,
    on_stdout = function(_, data) term = term .. table.concat(data, '\n') end,
    on_stderr = function(_, data) term = term .. table.concat(data, '\n') end,
  })
  assert(approvals > 0, 'could not start eukhe approvals')
  h.wait('eukhe approvals to attach', function() return term:find('Attached to', 1, true) ~= nil end, 30000)

  local approve = require('eukhe.approve')
  local settled = approve.settled
  local got_settled
  approve.settled = function(params)
    got_settled = params
    settled(params)
  end
  local asked = {}
  vim.fn.confirm = function(msg)
    table.insert(asked, msg)
    h.wait('the question in the terminal', function() return term:find('Allow? [y/N]', 1, true) ~= nil end)
    vim.fn.chansend(approvals, 'y\n')
    h.wait('eukhe/approvalSettled', function() return got_settled ~= nil end)
    h.results.status_while_settled = approve.statusline()
    return 1 -- Deny, pressed too late: the terminal answered first
  end

  local agent = h.agent()
  h.results.reply = agent.call(2, 'bash', { script = 'echo made > made.txt' })
  agent.stop()
  h.results.asked = #asked
  h.results.settled_answer = got_settled and got_settled.answer or ''
  h.results.status_after = approve.statusline()
  h.results.terminal = term
  vim.fn.jobstop(approvals)
end)
