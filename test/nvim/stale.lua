-- A user typing races the edit: the buffer is stale when the edit comes,
-- Neovim skips it (and still answers applied: true), and eukhe makes the
-- edit again over the typing (another line): it lands. Before that,
-- typing after the read on a line the edit stands on makes the edit
-- refused outright.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local a = h.open('a.txt')
  local b = h.open('b.txt')
  -- The user has typed in both before (their versions are not 0, which
  -- Neovim does not check).
  vim.api.nvim_buf_set_lines(a, 2, 3, true, { 'a three!' })
  vim.api.nvim_buf_set_lines(b, 2, 3, true, { 'b three!' })
  local ta = h.tag(h.tool('read', { path = 'a.txt' }).text)
  local tb = h.tag(h.tool('read', { path = 'b.txt' }).text)
  local patch = string.format('[a.txt#%s]\n@@ 2\n+a TWO\n[b.txt#%s]\n@@ 2\n+b TWO\n', ta, tb)

  -- Typing after the read, on a line the edit stands on.
  vim.api.nvim_buf_set_lines(a, 1, 2, true, { 'a two typed' })
  h.results.refused = h.tool('edit', { patch = patch }).text
  vim.api.nvim_buf_set_lines(a, 1, 2, true, { 'a two' })
  ta = h.tag(h.tool('read', { path = 'a.txt' }).text)
  patch = string.format('[a.txt#%s]\n@@ 2\n+a TWO\n[b.txt#%s]\n@@ 2\n+b TWO\n', ta, tb)

  -- Typing in b.txt just before Neovim applies the edit's second document.
  local apply = vim.lsp.handlers['workspace/applyEdit']
  local calls = 0
  vim.lsp.handlers['workspace/applyEdit'] = function(err, params, ctx)
    calls = calls + 1
    if calls == 2 then
      vim.api.nvim_buf_set_lines(b, 0, 1, true, { 'typed b one' })
    end
    return apply(err, params, ctx)
  end
  h.results.raced = h.tool('edit', { patch = patch }).text
  vim.lsp.handlers['workspace/applyEdit'] = apply
  h.results.a = h.text(a)
  h.results.b = h.text(b)
end)
