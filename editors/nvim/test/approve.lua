-- eukhe/approve answered through a scripted vim.fn.confirm (the test
-- stubs the UI function; the plugin calls it as it would for a user):
-- Esc and Enter deny, Allow and Allow for session approve, keys typed
-- before the dialog are dropped, a question settled before it is shown
-- is never asked, one settled while shown is closed; eukhe/toolIssue
-- becomes a notification. The handlers are called as Neovim calls them,
-- with protocol-shaped params.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.bin })
  local handlers = require('eukhe.handlers').table()
  local asked = {}
  local reply -- what the scripted user presses: a button number
  local during -- runs while the dialog is shown
  vim.fn.confirm = function(msg, choices, default, kind)
    table.insert(asked, {
      msg = msg, choices = choices, default = default, kind = kind,
      typeahead = vim.fn.getchar(0),
    })
    if during then during() end
    return reply
  end
  local function ask(id, params, button)
    reply = button
    params.id = id
    return handlers['eukhe/approve'](nil, params, { method = 'eukhe/approve', client_id = 1 }).answer
  end
  local q = {
    session = 's1', agent = 'reviewer', text = 'rm -rf build\\x1b[2J', cwd = h.root,
    effects = { 'write', 'exec' }, step = 2, offers = { 'approve', 'deny', 'approve_session' },
    deadline = '2026-12-01T09:05:07.123Z',
  }
  h.results.esc = ask('q1', vim.deepcopy(q), 0)
  h.results.enter = ask('q2', vim.deepcopy(q), 1) -- confirm's default: the button Enter picks
  h.results.allow = ask('q3', vim.deepcopy(q), 2)
  h.results.session = ask('q4', vim.deepcopy(q), 3)
  local noses = vim.deepcopy(q)
  noses.offers = { 'approve', 'deny' }
  noses.agent = nil
  noses.deadline = nil
  h.results.no_session_offer = ask('q5', noses, 3)
  vim.api.nvim_feedkeys('2', 't', false)
  h.results.typed_before = ask('q6', vim.deepcopy(q), 0)

  handlers['eukhe/approvalSettled'](nil, { id = 'q7', answer = 'approve' }, {})
  local before = #asked
  h.results.settled_before = ask('q7', vim.deepcopy(q), 2)
  h.results.settled_before_asked = #asked - before

  during = function()
    handlers['eukhe/approvalSettled'](nil, { id = 'q8', answer = 'deny' }, {})
    h.results.status_while_open = require('eukhe').statusline()
  end
  h.results.settled_while_open = ask('q8', vim.deepcopy(q), 2)
  during = nil
  h.results.status_after = require('eukhe').statusline()
  vim.fn.getchar(0) -- the <Esc> that closed the dialog

  h.results.asked = asked
  handlers['eukhe/toolIssue'](nil, { session = 's1', tool = 'grep', description = 'missed a match' }, {})
end)
