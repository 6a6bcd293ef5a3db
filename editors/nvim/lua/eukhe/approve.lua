-- eukhe/approve and eukhe/approvalSettled: the server asks the user about
-- one gated shell step or document access; the answer goes back as the
-- request's result. The server decides what is asked and escapes the
-- step; this module shows it whole and never defaults to yes.
--
-- The dialog is vim.fn.confirm with Deny as its first and default
-- button, on every Neovim version: it is modal (the request waits for
-- it, as the design asks), Enter picks Deny, <Esc> and <C-c> give 0
-- (Deny), and it works the same in 0.7, where a request handler must
-- answer synchronously (so a floating window could not wait for keys).
-- Keys typed before it appeared are dropped first, so typing cannot
-- approve by accident.
local M = {}

-- settled_ids are questions settled before they were shown: they are
-- answered deny without asking (the server ignores the answer).
local settled_ids = {}
-- waiting counts the questions received and not yet answered.
local waiting = 0
-- showing is the id of the question whose dialog is open.
local showing = nil


local function offered(params, answer)
  for _, o in ipairs(params.offers or {}) do
    if o == answer then
      return true
    end
  end
  return false
end

-- deadline_text says, in local time, when the question is denied
-- unanswered: from the RFC 3339 UTC deadline the server sends (its
-- approval.timeoutSeconds); nil when there is none.
function M.deadline_text(deadline)
  local y, mo, d, h, mi, s = tostring(deadline or ''):match('^(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)')
  if not y or not tostring(deadline):find('Z$') then
    return nil
  end
  local now = os.time()
  local offset = os.difftime(now, os.time(os.date('!*t', now)))
  local utc = os.time({ year = tonumber(y), month = tonumber(mo), day = tonumber(d),
    hour = tonumber(h), min = tonumber(mi), sec = tonumber(s), isdst = false })
  return 'Unanswered by ' .. os.date('%H:%M:%S', utc + offset) .. ', it is denied.'
end

-- message is the dialog's text: who asks, the step exactly as the server
-- sent it, where, its effects and by when it is denied unanswered.
function M.message(params)
  local who
  if params.agent and params.agent ~= '' then
    who = string.format('The subagent "%s" (session %s)', params.agent, params.session or '?')
  else
    who = string.format('The agent of session %s', params.session or '?')
  end
  local what = params.step and params.step > 0 and string.format('asks to run step %d:', params.step)
    or 'asks for:'
  local lines = { 'eukhe: ' .. who .. ' ' .. what, '', '    ' .. (params.text or ''), '' }
  if params.cwd and params.cwd ~= '' then
    table.insert(lines, 'in ' .. params.cwd)
  end
  if params.effects and #params.effects > 0 then
    table.insert(lines, 'effects: ' .. table.concat(params.effects, ', '))
  end
  local due = M.deadline_text(params.deadline)
  if due then
    table.insert(lines, due)
  end
  table.insert(lines, 'Enter or Esc denies.')
  return table.concat(lines, '\n')
end

-- buttons gives confirm()'s choices and the answer of each: Deny first
-- (the default), then Allow, then Allow for session when offered.
function M.buttons(params)
  local labels, result = { '&Deny' }, { 'deny' }
  if offered(params, 'approve') then
    table.insert(labels, '&Allow')
    table.insert(result, 'approve')
  end
  if offered(params, 'approve_session') then
    table.insert(labels, 'Allow for &session')
    table.insert(result, 'approve_session')
  end
  return table.concat(labels, '\n'), result
end

-- drop_typeahead discards keys typed before the dialog appears.
local function drop_typeahead()
  while vim.fn.getchar(0) ~= 0 do
  end
end

-- ask shows one question and gives the ApproveResult.
function M.ask(params)
  params = params or {}
  if settled_ids[params.id] then
    settled_ids[params.id] = nil
    return { answer = 'deny' }
  end
  waiting = waiting + 1
  vim.cmd('redrawstatus')
  local ok, choice = pcall(function()
    drop_typeahead()
    local labels, result = M.buttons(params)
    showing = params.id
    local n = vim.fn.confirm(M.message(params), labels, 1, 'Question')
    return result[n] or 'deny'
  end)
  showing = nil
  waiting = waiting - 1
  if settled_ids[params.id] then
    settled_ids[params.id] = nil
    choice = 'deny'
  end
  vim.cmd('redrawstatus')
  if not ok then
    vim.notify('eukhe: the approval dialog failed (' .. tostring(choice) .. '); the step was denied',
      vim.log.levels.ERROR)
    return { answer = 'deny' }
  end
  return { answer = choice }
end

-- settled drops a question answered elsewhere: one still queued is
-- answered deny unasked; an open dialog is closed (as <Esc>).
function M.settled(params)
  if not params or not params.id then
    return
  end
  if vim.tbl_count(settled_ids) > 256 then
    settled_ids = {} -- settled questions this client never received
  end
  settled_ids[params.id] = true
  if showing == params.id then
    vim.api.nvim_input('<Esc>')
    local how = params.answer and params.answer ~= '' and (': ' .. params.answer) or ''
    vim.notify('eukhe: the question was answered elsewhere' .. how, vim.log.levels.INFO)
  end
end

-- statusline gives "eukhe: N question(s)" while questions wait, else "".
function M.statusline()
  if waiting == 0 then
    return ''
  end
  return string.format('eukhe: %d question%s', waiting, waiting == 1 and '' or 's')
end

return M
