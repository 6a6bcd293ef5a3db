-- :checkhealth eukhe with a broken user settings file: an ERROR naming
-- the file and the problem.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.bin })
  local a = h.open('a.txt')
  h.client(a)
  vim.cmd('checkhealth eukhe')
  h.results.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end)
