-- A read sees the buffer's unsaved text.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local a = h.open('a.txt')
  vim.api.nvim_buf_set_lines(a, 1, 2, true, { 'unsaved two' })
  h.results.read = h.tool('read', { path = 'a.txt' }).text
  h.results.grep = h.tool('grep', { pattern = 'unsaved' }).text
end)
