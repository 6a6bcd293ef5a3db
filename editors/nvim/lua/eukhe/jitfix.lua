-- Neovim 0.7 on Debian's LuaJIT 2.1.0-beta3 refuses an agent's edit now
-- and then (bench/nvim/run.sh with a 0 ms debounce: one run of 1,000 edits
-- in three): "the editor refused the edit (vim/shared.lua:65:
-- opt[table: 0x…]: expected table, got userdata)". The edit carries no
-- JSON null: vim.validate's own table literal, iterated with pairs() in a
-- compiled trace, yields a key that is a table and a value that is
-- userdata, which only a wrong trace can do (the same runs never fail with
-- the JIT compiler off). The functions on that path, vim.split,
-- vim.gsplit, vim.validate and the functions they close over, are run
-- interpreted here: the error is gone (no refusal in 6,000 edits), at a
-- cost no one sees (they run per text edit, not per character).
local M = {}

local done = false

-- affected tells whether this Neovim runs on the LuaJIT that miscompiles.
function M.affected()
  return type(jit) == 'table' and jit.version == 'LuaJIT 2.1.0-beta3'
end

-- apply turns the JIT compiler off for those functions, once.
function M.apply()
  if done or not M.affected() then
    return
  end
  done = true
  for _, f in ipairs({ vim.validate, vim.gsplit, vim.split }) do
    jit.off(f, true)
    for i = 1, 64 do
      local name, v = debug.getupvalue(f, i)
      if not name then
        break
      end
      if type(v) == 'function' then
        jit.off(v, true)
      end
    end
  end
end

return M
