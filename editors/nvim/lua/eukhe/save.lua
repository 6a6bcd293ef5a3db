-- eukhe/saveDocuments: write the named buffers as :update would, nothing
-- else. A buffer that is not loaded, or fails to write, is left out of
-- the answer (the server then warns the agent that the disk differs).
local M = {}

-- loaded_buf gives the loaded buffer whose file is uri, or nil; it never
-- creates a buffer.
local function loaded_buf(uri)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.api.nvim_buf_get_name(b) ~= '' and vim.uri_from_bufnr(b) == uri then
      return b
    end
  end
  return nil
end

function M.save(params)
  local saved = {}
  for _, uri in ipairs(params and params.uris or {}) do
    local b = loaded_buf(uri)
    if b then
      local ok, err = pcall(vim.api.nvim_buf_call, b, function()
        vim.cmd('silent update')
      end)
      if ok and not vim.api.nvim_buf_get_option(b, 'modified') then
        table.insert(saved, uri)
      else
        vim.notify(string.format('eukhe: could not save %s after the agent\'s edit: %s; save it with :w',
          vim.uri_to_fname(uri), tostring(err or 'still modified')), vim.log.levels.WARN)
      end
    end
  end
  return { saved = saved }
end

return M
