-- eukhe/toolIssue: an agent reported a tool that failed or misbehaved
-- (report_issue); tell the user.
local M = {}

function M.show(params)
  params = params or {}
  local who = (params.session and params.session ~= '') and (' (session ' .. params.session .. ')') or ''
  vim.notify(string.format('eukhe: an agent%s reports a problem with the tool %s: %s',
    who, tostring(params.tool or '?'), tostring(params.description or '')), vim.log.levels.WARN)
end

return M
