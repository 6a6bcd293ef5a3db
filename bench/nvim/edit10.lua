-- The Neovim edit benchmark (bench/nvim/run.sh): headless Neovim, no
-- plugin, runs `eukhe lsp` as its language server, opens 10 files, and
-- sends N edits through eukhe/tool, each changing one line in all 10
-- open documents. Each edit is timed from the request to its reply; the
-- server replies only after every document's landing is verified (the
-- buffer's didChange brought the server's copy to the edited text). The
-- buffers are checked after each edit; the times go to $EUKHE_OUT as JSON.
--
-- Environment: EUKHE_BIN, EUKHE_ROOT (files f0.txt … f9.txt), EUKHE_OUT,
-- BENCH_EDITS (measured edits), BENCH_WARMUP, BENCH_DEBOUNCE (the
-- client's flags.debounce_text_changes in ms; unset: Neovim's default),
-- BENCH_PAUSE (ms to idle before each edit, untimed: an agent's pace),
-- BENCH_PLUGIN (the plugin's directory: its LuaJIT fix and its applyEdit
-- check are used, as with the plugin; unset: plain Neovim).

local root = assert(os.getenv('EUKHE_ROOT'))
local out = assert(os.getenv('EUKHE_OUT'))
local edits = tonumber(os.getenv('BENCH_EDITS') or '200')
local warmup = tonumber(os.getenv('BENCH_WARMUP') or '10')
local debounce = tonumber(os.getenv('BENCH_DEBOUNCE') or '')
local pause = tonumber(os.getenv('BENCH_PAUSE') or '0')
local uv = vim.loop
local res = { times = {}, debounce = debounce and (debounce .. ' ms') or "Neovim's default",
  pause = tonumber(os.getenv('BENCH_PAUSE') or '0') }

local function finish()
  local v = vim.version()
  res.nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(res))
  f:close()
  vim.cmd('qa!')
end

local plugin = os.getenv('BENCH_PLUGIN')
if plugin and plugin ~= '' then
  vim.opt.runtimepath:append(plugin)
  require('eukhe.jitfix').apply()
end

local ok, err = xpcall(function()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = { eukhe = { kind = 'nvim', methods = {}, checksVersions = plugin ~= nil and plugin ~= '' } }
  local handlers = {}
  if plugin and plugin ~= '' then
    handlers['workspace/applyEdit'] = require('eukhe.applyedit').handler
  end
  local id = assert(vim.lsp.start_client({
    name = 'eukhe',
    cmd = { assert(os.getenv('EUKHE_BIN')), 'lsp', '--root', root },
    root_dir = root,
    capabilities = caps,
    handlers = handlers,
    flags = { debounce_text_changes = debounce },
  }))
  local client = function() return vim.lsp.get_client_by_id(id) end
  assert(vim.wait(20000, function() local c = client(); return c ~= nil and c.initialized end, 10),
    'eukhe lsp did not initialize')

  -- call sends eukhe/tool and waits for the reply, polling every 1 ms;
  -- the reply's arrival is stamped in its callback.
  -- a reply later than this fails the run (BENCH_CALL_TIMEOUT_MS; the
  -- regression test under a loaded CI machine waits longer than a bench)
  local call_timeout = tonumber(os.getenv('BENCH_CALL_TIMEOUT_MS') or '') or 30000
  local function call(name, args)
    local reply, took
    local t0 = uv.hrtime()
    client().request('eukhe/tool', { name = name, arguments = args }, function(e, r)
      took = (uv.hrtime() - t0) / 1e6
      assert(not e, vim.inspect(e))
      reply = r
    end, 0)
    assert(vim.wait(call_timeout, function() return reply ~= nil end, 1),
      'eukhe/tool ' .. name .. ' got no reply in ' .. call_timeout .. ' ms')
    return reply, took
  end

  local bufs = {}
  for i = 0, 9 do
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/f' .. i .. '.txt'))
    bufs[i] = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(bufs[i], id)
  end
  local nlines = #vim.api.nvim_buf_get_lines(bufs[0], 0, -1, true)

  for n = 1, warmup + edits do
    local line = (n % nlines) + 1
    local word = 'edit' .. n
    local patch = {}
    for i = 0, 9 do
      local r = call('read', { path = 'f' .. i .. '.txt', raw = false })
      local tag = assert(r.text:match('^%[[^\n]-#(%x+)%]'), 'no tag in: ' .. r.text)
      table.insert(patch, string.format('[f%d.txt#%s]\n@@ %d\n+f%d line %d %s', i, tag, line, i, line, word))
    end
    if pause > 0 then
      vim.wait(pause)
    end
    local r, took = call('edit', { patch = table.concat(patch, '\n') .. '\n' })
    assert(not r.isError and not r.text:find('NOT', 1, true), 'edit ' .. n .. ': ' .. r.text)
    for i = 0, 9 do
      local got = vim.api.nvim_buf_get_lines(bufs[i], line - 1, line, true)[1]
      assert(got == string.format('f%d line %d %s', i, line, word), 'f' .. i .. '.txt line ' .. line .. ' is ' .. got)
    end
    if n > warmup then
      table.insert(res.times, took)
    end
  end
end, debug.traceback)
if not ok then
  res.error = tostring(err)
end
finish()
