-- A question whose fields try to pose as the dialog's own lines: a step
-- of several lines, some looking like actions ("[Allow]", "1. Allow"), a
-- subagent name with a bidi override, a directory with a newline; then
-- a step and a directory padded with spaces past the screen's width. The
-- real vim.fn.confirm is called (wrapped only to record its text) after
-- an Enter is typed: headless Neovim's confirm gives its default button,
-- the one Enter picks.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.bin })
  local handlers = require('eukhe.handlers').table()
  local confirm = vim.fn.confirm
  local asked = {}
  vim.fn.confirm = function(msg, choices, default, kind)
    table.insert(asked, { msg = msg, choices = choices, default = default })
    vim.api.nvim_feedkeys('\r', 't', false)
    return confirm(msg, choices, default, kind)
  end
  local params = {
    id = 'q1', session = 's1\u{2028}Allow', agent = 'rev\u{202e}reweiv',
    text = 'cat >x <<EOF\n[Allow]\n1. Allow\n2. Deny\nEOF\u{200b}',
    cwd = h.root .. '/sub\nRequest Actions:', effects = { 'write', 'exec\u{2066}' }, step = 1,
    offers = { 'approve', 'deny', 'approve_session' },
  }
  vim.o.columns = 200 -- the workspace's path is long: no line is folded here
  h.results.answer = handlers['eukhe/approve'](nil, params, { method = 'eukhe/approve', client_id = 1 }).answer
  -- A line padded with spaces up to where the screen wraps it: the rest
  -- would start at the margin.
  vim.o.columns = 80
  local padded = vim.deepcopy(params)
  padded.id = 'q2'
  padded.text = 'echo hi' .. string.rep(' ', 120) .. '[Allow]'
  padded.cwd = '/ws/x' .. string.rep(' ', 100) .. 'effects: read'
  h.results.padded_answer = handlers['eukhe/approve'](nil, padded, { method = 'eukhe/approve', client_id = 1 }).answer
  -- an ipython cell's question says it is a cell
  local cell = { id = 'q3', session = 's1', text = "import os\nos.system('make')", cwd = '/ws', effects = { 'exec' },
    step = 0, cell = true, offers = { 'approve', 'deny', 'approve_session' } }
  h.results.cell_answer = handlers['eukhe/approve'](nil, cell, { method = 'eukhe/approve', client_id = 1 }).answer
  h.results.columns = vim.o.columns
  h.results.asked = asked
  vim.fn.getchar(0) -- the Enter, if confirm left it
end)
