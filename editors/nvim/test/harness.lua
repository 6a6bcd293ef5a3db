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
