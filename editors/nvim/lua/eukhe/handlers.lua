-- The one table of eukhe/* handlers, keyed by method, as Neovim's own
-- vim.lsp.handlers. Each handler translates params to a call of the
-- module of its concern and back; requests return their result.
local M = {}

local function client_of(ctx)
  return ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
end

local handlers = {
  ['eukhe/saveDocuments'] = function(_, params)
    return require('eukhe.save').save(params)
  end,
  ['eukhe/review'] = function(_, params, ctx)
    require('eukhe.review').add(params, ctx and ctx.client_id)
  end,
  ['eukhe/approve'] = function(_, params)
    return require('eukhe.approve').ask(params)
  end,
  ['eukhe/approvalSettled'] = function(_, params)
    require('eukhe.approve').settled(params)
  end,
  ['eukhe/toolIssue'] = function(_, params)
    require('eukhe.issues').show(params)
  end,
  ['eukhe/runTool'] = function(_, params, ctx)
    local c = client_of(ctx)
    return require('eukhe.tools').run(params, c and c.config.root_dir)
  end,
  -- Neovim's own, with every document's version checked first
  ['workspace/applyEdit'] = function(err, params, ctx, config)
    return require('eukhe.applyedit').handler(err, params, ctx, config)
  end,
}

-- table gives the handlers for a client's config.
function M.table()
  return handlers
end

-- methods lists the server -> client eukhe/* methods handled here, for
-- experimental.eukhe.methods.
function M.methods()
  local out = {}
  for name in pairs(handlers) do
    if name:sub(1, 6) == 'eukhe/' then
      table.insert(out, name)
    end
  end
  table.sort(out)
  return out
end

M.client_of = client_of

return M
