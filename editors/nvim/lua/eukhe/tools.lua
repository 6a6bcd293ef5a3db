-- Editor tools lent to agents: joined with eukhe/joinTool once a client
-- is initialized, run on eukhe/runTool. Agents reach them through dyn.
-- Each gives plain text, capped; the server decides who may call them.
local M = {}

-- cap bounds a tool's text (bytes).
local cap = 16000

local function rel(root, name)
  if root and name:sub(1, #root + 1) == root .. '/' then
    return name:sub(#root + 2)
  end
  return name
end

local function file_schema(desc)
  return { type = 'object', properties = { file = { type = 'string', description = desc } } }
end

local function no_args()
  return { type = 'object', properties = vim.empty_dict() }
end

local severity = { 'ERROR', 'WARN', 'INFO', 'HINT' }

-- buffer_of finds the loaded buffer of a file (relative to root or absolute).
local function buffer_of(root, file)
  local path = file:sub(1, 1) == '/' and file or (root .. '/' .. file)
  path = vim.fn.fnamemodify(path, ':p')
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':p') == path then
      return b
    end
  end
  return nil
end

local tools = {}

tools['nvim/diagnostics'] = {
  description = 'Diagnostics Neovim shows (language servers, linters): for one file, or every open buffer.',
  schema = file_schema('a file (relative to the workspace root); omitted: every buffer'),
  run = function(args, root)
    if not vim.diagnostic then
      return 'this Neovim has no vim.diagnostic (0.6+ needed)', true
    end
    local bufnr = nil
    if args.file and args.file ~= '' then
      bufnr = buffer_of(root, args.file)
      if not bufnr then
        return args.file .. ' is not open in Neovim: no diagnostics', false
      end
    end
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      local name = rel(root, vim.api.nvim_buf_get_name(d.bufnr))
      table.insert(out, string.format('%s:%d:%d: %s: %s%s', name, d.lnum + 1, d.col + 1,
        severity[d.severity] or '?', (d.message or ''):gsub('\n', ' '),
        d.source and (' [' .. d.source .. ']') or ''))
    end
    if #out == 0 then
      return 'no diagnostics', false
    end
    return table.concat(out, '\n'), false
  end,
}

tools['nvim/buffers'] = {
  description = 'The files open in Neovim, each with [modified] when it has unsaved changes.',
  schema = no_args(),
  run = function(_, root)
    local out = {}
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local name = vim.api.nvim_buf_get_name(b)
      if vim.api.nvim_buf_get_option(b, 'buflisted') and name ~= '' then
        local mod = vim.api.nvim_buf_get_option(b, 'modified') and ' [modified]' or ''
        table.insert(out, rel(root, name) .. mod)
      end
    end
    if #out == 0 then
      return 'no open files', false
    end
    return table.concat(out, '\n'), false
  end,
}

tools['nvim/selection'] = {
  description = "The user's last visual selection in the current buffer: file, lines and text.",
  schema = no_args(),
  run = function(_, root)
    local b = vim.api.nvim_get_current_buf()
    local s = vim.api.nvim_buf_get_mark(b, '<')
    local e = vim.api.nvim_buf_get_mark(b, '>')
    if s[1] == 0 or e[1] == 0 then
      return 'no visual selection in the current buffer', false
    end
    local lines = vim.api.nvim_buf_get_lines(b, s[1] - 1, e[1], false)
    local name = rel(root, vim.api.nvim_buf_get_name(b))
    return string.format('%s lines %d-%d:\n%s', name, s[1], e[1], table.concat(lines, '\n')), false
  end,
}

-- join lends every tool to the server of a client (on_init).
function M.join(client)
  for name, t in pairs(tools) do
    client.request('eukhe/joinTool', { name = name, description = t.description, inputSchema = t.schema },
      function(err)
        if err then
          vim.notify('eukhe: could not lend ' .. name .. ': ' .. tostring(err.message or err), vim.log.levels.WARN)
        end
      end)
  end
end

-- run answers eukhe/runTool.
function M.run(params, root)
  local t = tools[params and params.name]
  if not t then
    return { text = 'Neovim has no tool ' .. tostring(params and params.name), isError = true }
  end
  local args = type(params.arguments) == 'table' and params.arguments or {}
  local ok, text, failed = pcall(t.run, args, root)
  if not ok then
    return { text = params.name .. ' failed in Neovim: ' .. tostring(text), isError = true }
  end
  if #text > cap then
    text = text:sub(1, cap) .. '\n… (cut at ' .. cap .. ' bytes)'
  end
  return { text = text, isError = failed and true or false }
end

return M
