-- eukhe: the Neovim client of `eukhe lsp`. require('eukhe').setup(opts)
-- starts the server for buffers under a workspace root and answers its
-- eukhe/* requests (handlers.lua). Nothing here holds a rule: the server
-- decides what to ask, save and review; this plugin only shows and asks.
local M = {}

local defaults = {
  -- The eukhe binary: a path, or a list (binary and arguments before
  -- `lsp`). nil: `eukhe` on PATH, else ~/go/bin/eukhe.
  cmd = nil,
  -- Files or directories that mark a workspace root, looked for upward
  -- from a buffer's file. A buffer under no marked root, but under the
  -- current directory, uses the current directory.
  root_markers = { '.eukhe', '.git' },
  -- A function(bufnr) -> root or nil that replaces the search above.
  root_dir = nil,
  -- Buffer-local mappings set where review hunks are shown; false drops one.
  keymaps = {
    next = ']r',
    prev = '[r',
    keep = '<leader>ek',
    undo = '<leader>eu',
    keep_file = '<leader>eK',
    undo_file = '<leader>eU',
  },
  -- Start the server for buffers as they are read (false: only :EukheStart).
  autostart = true,
}

M.config = vim.deepcopy(defaults)

-- setup configures the plugin and starts the server for buffers already
-- open and for those read later.
function M.setup(opts)
  opts = opts or {}
  local keymaps = opts.keymaps
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts)
  if keymaps == false then
    M.config.keymaps = {}
  end
  require('eukhe.jitfix').apply()
  require('eukhe.review').define_highlights()
  local group = vim.api.nvim_create_augroup('eukhe', { clear = true })
  if M.config.autostart then
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
      group = group,
      callback = function(ev)
        require('eukhe.client').attach(ev.buf)
      end,
    })
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) then
        require('eukhe.client').attach(b)
      end
    end
  end
  vim.api.nvim_create_autocmd('BufReadPost', {
    group = group,
    callback = function(ev)
      require('eukhe.review').show_buffer(ev.buf)
    end,
  })
end

-- statusline gives "eukhe: N questions" while approvals wait, else "".
function M.statusline()
  return require('eukhe.approve').statusline()
end

return M
