-- setup() starts the server; an agent's 3-file edit (a.txt with two
-- hunks and b.txt open, c.txt closed) is saved in the clean buffers and
-- shown for review; :EukheUndo undoes the hunk under the cursor,
-- :EukheReview lists the rest, :EukheKeepAll! keeps them and the marks go.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  h.results.commands = vim.fn.exists(':EukheUndo') == 2 and vim.fn.exists(':EukheKeepAll') == 2
  require('eukhe').setup({ cmd = h.bin })
  local a = h.open('a.txt')
  local b = h.open('b.txt')
  local c = h.client(a)
  h.results.same_client = require('eukhe.client').for_buf(b).id == c.id
  h.results.advertised = c.config.capabilities.experimental.eukhe
  local we = c.config.capabilities.workspace.workspaceEdit or {}
  h.results.failure_handling = we.failureHandling or ''
  local patch = ''
  for _, n in ipairs({ 'a', 'b', 'c' }) do
    local r = h.tool('read', { path = n .. '.txt' }, a)
    patch = patch .. string.format('[%s.txt#%s]\n@@ 2\n+%s TWO\n', n, h.tag(r.text), n)
    if n == 'a' then
      patch = patch .. '@@ 4\n+a FOUR\n'
    end
  end
  h.results.edit = h.tool('edit', { patch = patch }, a).text
  local review = require('eukhe.review')
  h.wait('the review of the edit', function() return #review.hunks() == 4 end)
  h.results.hunks = review.hunks()
  h.results.a_marks = #vim.api.nvim_buf_get_extmarks(a, review.ns, 0, -1, {})
  h.results.a_modified = vim.api.nvim_buf_get_option(a, 'modified')
  h.results.a_keymap = vim.fn.maparg(']r', 'n', false, true).buffer == 1

  vim.api.nvim_set_current_buf(a)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('normal ]r')
  h.results.jumped_to = vim.api.nvim_win_get_cursor(0)[1]
  h.results.a_read_before_undo = h.tool('read', { path = 'a.txt' }, a).text
  vim.cmd('EukheUndo')
  h.wait('the undo of a.txt hunk 0', function() return #review.hunks() == 3 end)
  -- The server's tag of a.txt moves with the undo (read before and after).
  h.wait('the server to see the undo', function()
    h.results.a_read_after_undo = h.tool('read', { path = 'a.txt' }, a).text
    return not h.results.a_read_after_undo:find('a TWO', 1, true)
  end)
  h.results.a_after_undo = h.text(a)
  h.results.a_modified_after_undo = vim.api.nvim_buf_get_option(a, 'modified')

  -- The user adds a line above: the marks follow.
  vim.api.nvim_buf_set_lines(a, 0, 0, true, { 'typed first' })

  vim.cmd('EukheReview')
  h.results.qf = vim.tbl_map(function(it)
    return { file = vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t'), lnum = it.lnum, text = it.text }
  end, vim.fn.getqflist())
  vim.cmd('cclose')

  -- c.txt, closed during the edit, shows its hunk when opened.
  local c_buf = h.open('c.txt')
  h.results.c_marks = #vim.api.nvim_buf_get_extmarks(c_buf, review.ns, 0, -1, {})

  vim.cmd('EukheKeepAll!')
  h.wait('keep all', function() return #review.hunks() == 0 end)
  h.results.a_marks_after = #vim.api.nvim_buf_get_extmarks(a, review.ns, 0, -1, {})
  h.results.b_marks_after = #vim.api.nvim_buf_get_extmarks(b, review.ns, 0, -1, {})
  h.results.a_final = h.text(a)
end)
