-- A user types continuously near the lines an agent edits (issue 15,
-- item 5): bursts of eight keystrokes 30 ms apart at the end of line 10,
-- each followed by a pause of 240 ms,
-- while an agent outside Neovim (its requests flush nothing) reads a.txt
-- and replaces line 9 or 11, again and again. Neovim keeps its default
-- debounce (its first change report is held while the user types). No
-- keystroke may be lost, and no reply may say an edit did not land when
-- its text is in the buffer (or that it did when it is not).
-- EUKHE_TYPING_EDITS: how many edits (default 16).
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local a = h.open('a.txt')
  local typed, typing = 0, true
  local timer = vim.loop.new_timer()
  local tick = 0
  timer:start(30, 30, vim.schedule_wrap(function()
    if not typing then
      return
    end
    tick = tick + 1
    if tick % 16 >= 8 then
      return -- a pause after eight keystrokes
    end
    local line = vim.api.nvim_buf_get_lines(a, 9, 10, true)[1]
    vim.api.nvim_buf_set_text(a, 9, #line, 9, #line, { 'k' })
    typed = typed + 1
  end))
  local replies = {}
  local wrong = {}
  local refused = {}
  for n = 1, tonumber(os.getenv('EUKHE_TYPING_EDITS') or '16') do
    local target = (n % 2 == 0) and 9 or 11
    local r = h.agent('read', { path = 'a.txt' })
    local tag = r.text:match('^%[[^\n]-#(%x+)%]')
    if tag then
      local want = string.format('a line %d edit %d', target, n)
      local e = h.agent('edit', { patch = string.format('[a.txt#%s]\n@@ %d\n+%s\n', tag, target, want) })
      local now = vim.api.nvim_buf_get_lines(a, target - 1, target, true)[1]
      local landed = now == want
      local says = e.text:match('^Applied') and 'applied' or (e.text:match('^not confirmed') and 'unconfirmed' or 'not')
      table.insert(replies, says)
      if says == 'not' then
        table.insert(refused, e.text)
      end
      if (says == 'applied' and not landed) or (says == 'not' and landed) then
        table.insert(wrong, string.format('edit %d: the buffer has %q; the reply:\n%s', n, now, e.text))
      end
    end
    vim.wait(math.random(0, 80))
  end
  typing = false
  timer:stop()
  timer:close()
  local lines = vim.api.nvim_buf_get_lines(a, 0, -1, true)
  h.results.typed = typed
  h.results.line10 = lines[10]
  h.results.lines = #lines
  h.results.replies = replies
  h.results.wrong = wrong
  h.results.refused = refused
end)
