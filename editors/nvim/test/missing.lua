-- opts.cmd naming no binary: a message that says what to do, no client,
-- and :checkhealth eukhe reports the error.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup({ cmd = h.root .. '/no/such/eukhe' })
  local a = h.open('a.txt')
  h.results.client = require('eukhe.client').for_buf(a) ~= nil
  vim.cmd('checkhealth eukhe')
  h.results.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end)
