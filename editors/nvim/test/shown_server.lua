-- Serves approve.lua's escapes to shown_test.go: each line read is a
-- string in hex; each line written is M.visible's and M.visible_text's
-- of it, in hex, separated by a space. Hex, so any byte goes through.
local approve = require('eukhe.approve')
local function unhex(h)
  return (h:gsub('%x%x', function(x) return string.char(tonumber(x, 16)) end))
end
local function hex(s)
  return (s:gsub('.', function(c) return string.format('%02x', c:byte()) end))
end
while true do
  local line = io.read('*l')
  if not line then
    break
  end
  local s = unhex(line)
  io.stdout:write(hex(approve.visible(s)) .. ' ' .. hex(approve.visible_text(s)) .. '\n')
  io.stdout:flush()
end
vim.cmd('qa!')
