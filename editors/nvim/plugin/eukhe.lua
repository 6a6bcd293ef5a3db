-- eukhe: user commands only. Each loads its module when run; setup() is
-- what starts the server (require('eukhe').setup()).
if vim.g.loaded_eukhe then
  return
end
vim.g.loaded_eukhe = true

local function cmd(name, fn, opts)
  opts = opts or {}
  vim.api.nvim_create_user_command(name, fn, opts)
end

local function review()
  return require('eukhe.review')
end

cmd('EukheKeep', function() review().decide_cursor('keep') end,
  { desc = 'eukhe: keep the agent edit under the cursor' })
cmd('EukheUndo', function() review().decide_cursor('undo') end,
  { desc = 'eukhe: undo the agent edit under the cursor' })
cmd('EukheKeepAll', function(a)
  if a.bang then review().decide_all('keep') else review().decide_file('keep') end
end, { bang = true, desc = 'eukhe: keep the agent edits in this file (! in every file)' })
cmd('EukheUndoAll', function(a)
  if a.bang then review().decide_all('undo') else review().decide_file('undo') end
end, { bang = true, desc = 'eukhe: undo the agent edits in this file (! in every file)' })
cmd('EukheReview', function()
  if #review().quickfix() > 0 then
    vim.cmd('copen')
  end
end, { desc = 'eukhe: list the agent edits under review in the quickfix list' })
cmd('EukheStart', function()
  local client = require('eukhe.client')
  if not client.root_of(vim.api.nvim_get_current_buf()) then
    vim.notify('eukhe: this buffer is under no workspace root (see :help eukhe-root)', vim.log.levels.WARN)
    return
  end
  client.attach(0)
end, { desc = 'eukhe: start the server for this buffer' })
