-- A 3-file edit, two files open and one closed, lands in the buffers and
-- on disk; :undo in a buffer undoes the agent's change there.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local a = h.open('a.txt')
  local b = h.open('b.txt')
  local patch = ''
  for _, n in ipairs({ 'a', 'b', 'c' }) do
    local r = h.tool('read', { path = n .. '.txt' })
    patch = patch .. string.format('[%s.txt#%s]\n@@ 2\n+%s TWO\n', n, h.tag(r.text), n)
  end
  h.results.edit = h.tool('edit', { patch = patch }).text
  h.results.a = h.text(a)
  h.results.b = h.text(b)
  h.results.c_open = vim.fn.bufloaded(h.root .. '/c.txt') == 1
  vim.api.nvim_buf_call(a, function() vim.cmd('undo') end)
  h.results.a_undone = h.text(a)
  h.settle('a.txt', 'a two')
  h.results.read_after_undo = h.tool('read', { path = 'a.txt' }).text
end)
