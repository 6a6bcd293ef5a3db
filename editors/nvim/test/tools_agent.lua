-- An agent over `eukhe mcp` calls the editor tools the plugin lent with
-- eukhe/joinTool, through dyn: nvim/buffers flags a modified buffer,
-- nvim/selection gives the last visual selection, nvim/diagnostics the
-- diagnostics of a buffer.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.bin })
  local a = h.open('a.txt')
  h.client(a)
  local b = h.open('b.txt')
  vim.api.nvim_buf_set_lines(b, 0, 1, true, { 'b typed' })
  vim.cmd('normal! 2GVj\27')
  if vim.diagnostic then
    local ns = vim.api.nvim_create_namespace('eukhe-test')
    vim.diagnostic.set(ns, a, { { lnum = 2, col = 0, severity = vim.diagnostic.severity.ERROR, message = 'bad three' } })
  end
  h.socket()
  local agent = h.agent()
  h.results.listed = agent.call(2, 'dyn', vim.empty_dict())
  h.results.buffers = agent.call(3, 'dyn', { name = 'nvim/buffers', arguments = vim.empty_dict() })
  h.results.selection = agent.call(4, 'dyn', { name = 'nvim/selection', arguments = vim.empty_dict() })
  h.results.diagnostics = agent.call(5, 'dyn', { name = 'nvim/diagnostics', arguments = { file = 'a.txt' } })
  agent.stop()
end)
