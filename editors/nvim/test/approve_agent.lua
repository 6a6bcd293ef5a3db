-- An agent over `eukhe mcp` (attached to the server Neovim runs) runs a
-- shell step that needs approval: the server asks Neovim with
-- eukhe/approve; the scripted user presses the button $EUKHE_BUTTON in
-- the vim.fn.confirm dialog (stubbed here, in the test); the agent's
-- reply says what happened.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local button = tonumber(os.getenv('EUKHE_BUTTON'))
  local asked = {}
  vim.fn.confirm = function(msg, choices, default)
    table.insert(asked, { msg = msg, choices = choices, default = default })
    return button
  end
  require('eukhe').setup({ cmd = h.bin })
  h.client(h.open('a.txt'))
  -- The server opens its discovery socket once the editor said
  -- initialized; an agent started before that would run headless.
  local sockets = os.getenv('XDG_RUNTIME_DIR') .. '/eukhe'
  h.wait('the discovery socket', function()
    return #vim.fn.glob(sockets .. '/*.json', false, true) > 0
  end, 30000)

  local lines, buf = {}, ''
  local job = vim.fn.jobstart({ h.bin, 'mcp', '--root', h.root }, {
    cwd = h.root,
    on_stdout = function(_, data)
      buf = buf .. table.concat(data, '\n')
      while true do
        local nl = buf:find('\n', 1, true)
        if not nl then break end
        table.insert(lines, buf:sub(1, nl - 1))
        buf = buf:sub(nl + 1)
      end
    end,
  })
  assert(job > 0, 'could not start eukhe mcp')
  local function send(msg)
    vim.fn.chansend(job, vim.fn.json_encode(msg) .. '\n')
  end
  local function reply(id)
    local got
    h.wait('the MCP reply ' .. id, function()
      for _, l in ipairs(lines) do
        local ok, m = pcall(vim.fn.json_decode, l)
        if ok and type(m) == 'table' and m.id == id then
          got = m
          return true
        end
      end
      return false
    end, 30000)
    return got
  end
  send({ jsonrpc = '2.0', id = 1, method = 'initialize', params = {
    protocolVersion = '2025-06-18', capabilities = vim.empty_dict(),
    clientInfo = { name = 'nvim-test-agent', version = '1' } } })
  reply(1)
  send({ jsonrpc = '2.0', method = 'notifications/initialized' })
  send({ jsonrpc = '2.0', id = 2, method = 'tools/call', params = {
    name = 'bash', arguments = { script = 'echo made > made.txt' } } })
  local r = reply(2)
  local text = {}
  for _, c in ipairs(r.result and r.result.content or {}) do
    table.insert(text, c.text or '')
  end
  h.results.reply = table.concat(text, '\n')
  h.results.asked = asked
  vim.fn.jobstop(job)
end)
