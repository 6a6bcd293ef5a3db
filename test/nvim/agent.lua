-- An agent over `eukhe mcp` attaches to this Neovim's eukhe server through
-- the discovery socket: its read sees a buffer's unsaved text, and its
-- gated steps are questions Neovim answers through showMessageRequest
-- (Allow the first, Deny the second, chosen by title).
local h = dofile(os.getenv('EUKHE_HARNESS'))
local asked = {}
vim.lsp.handlers['window/showMessageRequest'] = function(_, params)
  table.insert(asked, params.message)
  local want = #asked == 1 and 'Allow' or 'Deny'
  for _, a in ipairs(params.actions) do
    if a.title == want then
      return a
    end
  end
end
h.run(function()
  local a = h.open('a.txt')
  vim.api.nvim_buf_set_lines(a, 1, 2, true, { 'unsaved two' })
  assert(h.settle('a.txt', 'unsaved two'), 'the server did not see the buffer')
  local lines, partial, errs = {}, '', {}
  local job = vim.fn.jobstart({ os.getenv('EUKHE_BIN'), 'mcp' }, {
    cwd = h.root,
    on_stderr = function(_, data)
      vim.list_extend(errs, data)
    end,
    on_stdout = function(_, data)
      data[1] = partial .. data[1]
      partial = data[#data]
      for i = 1, #data - 1 do
        table.insert(lines, data[i])
      end
    end,
  })
  assert(job > 0, 'eukhe mcp did not start')
  local id = 0
  local function rpc(method, params)
    id = id + 1
    vim.fn.chansend(job, vim.fn.json_encode({ jsonrpc = '2.0', id = id, method = method, params = params }) .. '\n')
    local res
    assert(vim.wait(30000, function()
      for _, l in ipairs(lines) do
        local ok, m = pcall(vim.fn.json_decode, l)
        if ok and type(m) == 'table' and m.id == id then
          res = m
          return true
        end
      end
      return false
    end, 10), method .. ': no answer from eukhe mcp')
    assert(res.result, method .. ': ' .. vim.inspect(res.error))
    return res.result
  end
  local function call(name, args)
    return rpc('tools/call', { name = name, arguments = args }).content[1].text
  end
  rpc('initialize', { protocolVersion = '2025-06-18', capabilities = vim.empty_dict(),
    clientInfo = { name = 'nvim-test', version = '1' } })
  vim.fn.chansend(job, vim.fn.json_encode({ jsonrpc = '2.0', method = 'notifications/initialized' }) .. '\n')
  h.results.read = call('read', { path = 'a.txt' })
  h.results.allowed = call('bash', { script = 'echo yes > allowed.txt' })
  h.results.denied = call('bash', { script = 'echo no > denied.txt' })
  h.results.asked = asked
  h.results.mcp_stderr = table.concat(errs, '\n')
  vim.fn.chanclose(job, 'stdin')
  vim.fn.jobwait({ job }, 10000)
end)
