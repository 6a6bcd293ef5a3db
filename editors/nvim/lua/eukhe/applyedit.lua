-- workspace/applyEdit with every document's version checked first. Neovim
-- checks only the first document of an edit, and none at version 0 (the
-- version of a buffer whose first change is still in its debounce), and
-- then applies an edit over text the server has not seen: the user's
-- keystrokes are lost. Here every text edit's version must be the
-- buffer's own (vim.lsp.util.buf_versions, set at each change before the
-- debounce; else b:changedtick), or nothing is applied and the server is
-- told which buffer moved.
local M = {}

-- version gives the version Neovim's LSP client holds for a buffer: the
-- changedtick of its last change, 0 before any.
local function version(bufnr)
  local v = vim.lsp.util.buf_versions and vim.lsp.util.buf_versions[bufnr]
  if type(v) == 'number' then
    return v
  end
  return vim.api.nvim_buf_get_var(bufnr, 'changedtick')
end

-- moved gives why an edit must not be applied, or nil: a text document
-- edit whose buffer is loaded at another version than the edit's.
function M.moved(edit)
  if type(edit) ~= 'table' or type(edit.documentChanges) ~= 'table' then
    return nil
  end
  for _, dc in ipairs(edit.documentChanges) do
    local td = type(dc) == 'table' and dc.textDocument
    if type(td) == 'table' and type(td.version) == 'number' and type(td.uri) == 'string' then
      local bufnr = vim.uri_to_bufnr(td.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) then
        local have = version(bufnr)
        if have ~= td.version then
          return string.format('%s changed in Neovim (version %d; the edit was made at version %d): nothing was applied',
            vim.uri_to_fname(td.uri), have, td.version)
        end
      end
    end
  end
  return nil
end

-- handler wraps Neovim's workspace/applyEdit handler with the check.
function M.handler(err, params, ctx, config)
  local why = M.moved(params and params.edit)
  if why then
    return { applied = false, failureReason = why }
  end
  return vim.lsp.handlers['workspace/applyEdit'](err, params, ctx, config)
end

return M
