-- The harness of the Neovim end-to-end tests (cmd/eukhe/lsp_nvim_test.go):
-- Neovim, with no plugin and no user config, runs `eukhe lsp` as its
-- language server with vim.lsp.start_client (Neovim 0.7 has no
-- vim.lsp.start). A scenario script does `local h = dofile(HARNESS)`,
-- opens buffers, drives the server with the eukhe/tool request, records
-- what it sees in h.results, and ends with h.finish(); the Go test reads
-- the results from the JSON file $EUKHE_OUT.
--
-- Environment: EUKHE_BIN (the eukhe binary), EUKHE_ROOT (the workspace),
-- EUKHE_OUT (the results file), EUKHE_METHODS (comma-separated eukhe/*
-- methods this client implements: eukhe/saveDocuments is handled here),
-- EUKHE_PLUGIN (the plugin's directory: its workspace/applyEdit check and
-- LuaJIT fix are used, and checksVersions announced; unset: plain Neovim),
-- EUKHE_TRACE (a file the server's LSP trace goes to, shown on a failure).

local h = { results = {} }
local root = assert(os.getenv('EUKHE_ROOT'), 'EUKHE_ROOT is not set')
local out = assert(os.getenv('EUKHE_OUT'), 'EUKHE_OUT is not set')
local methods = vim.split(os.getenv('EUKHE_METHODS') or '', ',', { trimempty = true })
h.root = root

local handlers = {}
handlers['eukhe/saveDocuments'] = function(_, params)
  local saved = {}
  for _, u in ipairs(params.uris) do
    local b = vim.uri_to_bufnr(u)
    vim.api.nvim_buf_call(b, function() vim.cmd('silent write') end)
    table.insert(saved, u)
  end
  return { saved = saved }
end

local caps = vim.lsp.protocol.make_client_capabilities()
caps.experimental = { eukhe = { kind = 'nvim', methods = methods } }
local plugin = os.getenv('EUKHE_PLUGIN')
if plugin and plugin ~= '' then
  vim.opt.runtimepath:append(plugin)
  require('eukhe.jitfix').apply()
  handlers['workspace/applyEdit'] = require('eukhe.applyedit').handler
  caps.experimental.eukhe.checksVersions = true
end

local cmd = { assert(os.getenv('EUKHE_BIN')), 'lsp', '--root', root }
local trace = os.getenv('EUKHE_TRACE')
if trace and trace ~= '' then
  vim.list_extend(cmd, { '--trace', trace })
end
local client_id = vim.lsp.start_client({
  name = 'eukhe',
  cmd = cmd,
  root_dir = root,
  capabilities = caps,
  handlers = handlers,
})
assert(client_id, 'vim.lsp.start_client failed')
h.client_id = client_id

function h.client()
  return vim.lsp.get_client_by_id(client_id)
end

assert(vim.wait(20000, function()
  local c = h.client()
  return c ~= nil and c.initialized
end, 10), 'eukhe lsp did not initialize')

-- open edits a workspace file and attaches the server to its buffer.
function h.open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. name))
  local b = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(b, client_id)
  return b
end

-- tool runs one document tool on the server (eukhe/tool) and gives
-- {text, isError}. The request flushes pending didChange first. It waits
-- up to two minutes: the whole race-detector suite can load the machine.
function h.tool(name, args)
  local r = h.client().request_sync('eukhe/tool', { name = name, arguments = args }, 120000, nil)
  assert(r, 'eukhe/tool ' .. name .. ' timed out')
  assert(not r.err, vim.inspect(r.err))
  return r.result
end

-- agent runs one document tool as an agent outside Neovim does: the
-- request goes without flushing Neovim's pending didChange first (the
-- server may not have seen the latest typing). It gives {text, isError}.
function h.agent(name, args)
  local reply
  h.client().rpc.request('eukhe/tool', { name = name, arguments = args }, function(err, r)
    reply = err and { text = 'error: ' .. vim.inspect(err), isError = true } or r
  end)
  assert(vim.wait(60000, function() return reply ~= nil end, 5), 'eukhe/tool ' .. name .. ' timed out')
  return reply
end

-- tag is the tag in a read's header.
function h.tag(text)
  return assert(text:match('^%[[^\n]-#(%x+)%]'), 'no tag in: ' .. text)
end

-- text is a buffer's text as the server sees it (lines, each ended).
function h.text(b)
  return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, true), '\n') .. '\n'
end

-- settle waits until the server's view of a buffer is its text: a read
-- through the server holds want.
function h.settle(name, want)
  return vim.wait(10000, function()
    return h.tool('read', { path = name, raw = true }).text:find(want, 1, true) ~= nil
  end, 20)
end

function h.finish()
  local v = vim.version()
  h.results.nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(h.results))
  f:close()
  vim.cmd('qa!')
end

-- run runs a scenario, records an error it raises, and finishes.
function h.run(scenario)
  local ok, err = xpcall(scenario, debug.traceback)
  if not ok then
    h.results.error = tostring(err)
  end
  h.finish()
end

return h
