-- A plain packpath install (pack/eukhe/start/eukhe, no tags file):
-- setup() writes the help tags, so :help eukhe opens the plugin's help.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  h.results.before = #vim.fn.globpath(vim.o.runtimepath, 'doc/tags', false, true) > 0
    and vim.fn.filereadable(os.getenv('EUKHE_PACK') .. '/doc/tags') == 1
  require('eukhe').setup({ autostart = false })
  local ok, err = pcall(vim.cmd, 'help eukhe')
  h.results.ok = ok
  h.results.err = tostring(err or '')
  h.results.buf = vim.api.nvim_buf_get_name(0)
end)
