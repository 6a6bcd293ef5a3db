-- A client that implements eukhe/saveDocuments: documents clean before
-- the edit are saved; one with unsaved changes is left unsaved.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local a = h.open('a.txt')
  local b = h.open('b.txt')
  vim.api.nvim_buf_set_lines(b, 2, 3, true, { 'b three unsaved' })
  local ta = h.tag(h.tool('read', { path = 'a.txt' }).text)
  local tb = h.tag(h.tool('read', { path = 'b.txt' }).text)
  h.results.edit = h.tool('edit', { patch = string.format('[a.txt#%s]\n@@ 1\n+A ONE\n[b.txt#%s]\n@@ 1\n+B ONE\n', ta, tb) }).text
  h.results.a_modified = vim.api.nvim_buf_get_option(a, 'modified')
  h.results.b_modified = vim.api.nvim_buf_get_option(b, 'modified')
end)
