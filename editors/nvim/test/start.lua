-- setup() with no cmd finds eukhe on PATH; one client per workspace
-- root (a directory with .eukhe is a root of its own); :checkhealth eukhe.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  require('eukhe').setup()
  local a = h.open('a.txt')
  local b = h.open('b.txt')
  local s = h.open('sub/s.txt')
  local ca, cb, cs = h.client(a), h.client(b), h.client(s)
  h.results.ab_same = ca.id == cb.id
  h.results.s_other = cs.id ~= ca.id
  h.results.roots = vim.tbl_keys(require('eukhe.client').roots())
  h.results.cmd = ca.config.cmd
  vim.api.nvim_set_current_buf(a)
  vim.cmd('checkhealth eukhe')
  h.results.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end)
