-- The harness of the plugin's tests in real Neovim (nvim_test.go): Neovim
-- runs with --clean and the plugin on 'runtimepath' (plain packpath, no
-- plugin manager). A scenario does `local h = dofile(os.getenv('EUKHE_HARNESS'))`,
-- records what it sees in h.results and ends through h.run; the Go test
-- reads the results from the JSON file $EUKHE_OUT.
--
-- Environment: EUKHE_BIN (the eukhe binary), EUKHE_ROOT (the workspace),
-- EUKHE_OUT (the results file).
local h = { results = {} }
h.root = assert(os.getenv('EUKHE_ROOT'), 'EUKHE_ROOT is not set')
h.bin = os.getenv('EUKHE_BIN')
local out = assert(os.getenv('EUKHE_OUT'), 'EUKHE_OUT is not set')

-- notes records every vim.notify, for scenarios that check messages.
h.notes = {}
vim.notify = function(msg, level)
  table.insert(h.notes, { msg = msg, level = level })
end

function h.wait(what, cond, ms)
  assert(vim.wait(ms or 20000, cond, 10), 'timed out waiting for ' .. what)
end

-- open edits a workspace file; setup's autocmd attaches the server.
function h.open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(h.root .. '/' .. name))
  return vim.api.nvim_get_current_buf()
end

-- client is the eukhe client attached to a buffer, once initialized.
function h.client(b)
  local c
  h.wait('eukhe lsp to initialize', function()
    c = require('eukhe.client').for_buf(b or 0)
    return c ~= nil and c.initialized
  end)
  return c
end

-- tool runs one document tool through the server (eukhe/tool).
function h.tool(name, args, b)
  local r = h.client(b).request_sync('eukhe/tool', { name = name, arguments = args }, 30000, b or 0)
  assert(r, 'eukhe/tool ' .. name .. ' timed out')
  assert(not r.err, vim.inspect(r.err))
  return r.result
end

function h.tag(text)
  return assert(text:match('^%[[^\n]-#(%x+)%]'), 'no tag in: ' .. text)
end

function h.text(b)
  return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, true), '\n') .. '\n'
end

-- socket waits for the discovery socket: the server opens it once the
-- editor said initialized; an agent started before would run headless.
function h.socket()
  local sockets = os.getenv('XDG_RUNTIME_DIR') .. '/eukhe'
  h.wait('the discovery socket', function()
    return #vim.fn.glob(sockets .. '/*.json', false, true) > 0
  end, 30000)
end

-- agent starts an agent over `eukhe mcp` attached to the server, and
-- initializes it. agent.call(id, tool, args) gives the text of the reply.
function h.agent()
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
  local a = { job = job }
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
  function a.call(id, name, args)
    send({ jsonrpc = '2.0', id = id, method = 'tools/call', params = { name = name, arguments = args } })
    local r = reply(id)
    local text = {}
    for _, c in ipairs(r.result and r.result.content or {}) do
      table.insert(text, c.text or '')
    end
    return table.concat(text, '\n'), r.result and r.result.isError
  end
  function a.stop()
    vim.fn.jobstop(job)
  end
  return a
end

function h.finish()
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(h.results))
  f:close()
  vim.cmd('qa!')
end

function h.run(scenario)
  local ok, err = xpcall(scenario, debug.traceback)
  if not ok then
    h.results.error = tostring(err)
  end
  h.results.notes = vim.tbl_map(function(n) return n.msg end, h.notes)
  h.finish()
end

return h
