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
--
-- Nothing the agent wrote can pose as a line of the dialog's own (a fake
-- list of actions above the real one): every line of the step is
-- indented, and each field shown (the subagent's name, the session, the
-- directory, an effect's name) is escaped as the server escapes it
-- (gate.Visible): as is when plain, else quoted, with each character that
-- does not print as a $'\u202e' escape. The step, escaped by the server
-- already, has each such character escaped again (a server that did not
-- is caught too), newlines and tabs kept. A line wider than the screen
-- is folded, its rest marked, so the screen never wraps it to the margin.
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

-- hidden_ranges are the code points shown escaped: C0 controls, DEL and
-- C1, spaces other than U+0020, soft hyphen, bidi marks, embeddings,
-- overrides and isolates (U+200E-200F, U+202A-202E, U+2066-2069, U+061C),
-- zero-width characters and joiners (U+200B-200D, U+2060-2064, U+FEFF),
-- line and paragraph separators (U+2028-2029), other format characters,
-- surrogates, private use (a font can draw anything there), tags and the
-- replacement character (syntax.Quote escapes it: it stands for a byte
-- that is not UTF-8).
-- Sorted; Lua has no Unicode tables, so this is the part of Go's
-- !unicode.IsPrint that can hide or move text (unassigned code points
-- are shown as they are).
-- (in order; with the characters that print as nothing though they are
-- letters, marks or symbols: the Hangul fillers, the braille blank, the
-- combining grapheme joiner, Khmer's inherent vowels, the variation
-- selectors, as gate.blank has them)
local hidden_ranges = {
  { 0x00, 0x1F }, { 0x7F, 0xA0 }, { 0xAD, 0xAD }, { 0x034F, 0x034F }, { 0x0600, 0x0605 }, { 0x061C, 0x061C },
  { 0x06DD, 0x06DD }, { 0x070F, 0x070F }, { 0x115F, 0x1160 }, { 0x1680, 0x1680 }, { 0x17B4, 0x17B5 },
  { 0x180B, 0x180F }, { 0x2000, 0x200F }, { 0x2028, 0x202F }, { 0x205F, 0x206F }, { 0x2800, 0x2800 },
  { 0x3000, 0x3000 }, { 0x3164, 0x3164 }, { 0xD800, 0xF8FF }, { 0xFE00, 0xFE0F }, { 0xFEFF, 0xFEFF },
  { 0xFFA0, 0xFFA0 }, { 0xFFF9, 0xFFFB }, { 0xFFFD, 0xFFFD }, { 0x13430, 0x1345F }, { 0x16FE4, 0x16FE4 },
  { 0x1BC9D, 0x1BC9D }, { 0x1BCA0, 0x1BCA3 }, { 0x1D159, 0x1D159 },
  { 0x1D173, 0x1D17A }, { 0xE0000, 0xE0FFF }, { 0xF0000, 0x10FFFF },
}

local function hidden(cp)
  for _, r in ipairs(hidden_ranges) do
    if cp < r[1] then
      return false
    end
    if cp <= r[2] then
      return true
    end
  end
  return false
end

-- decode gives the code point of the UTF-8 sequence at byte i of s and its
-- length, or nil for a byte that starts no valid sequence (an overlong
-- form, a surrogate, a missing continuation byte).
local function decode(s, i)
  local b = s:byte(i)
  if b < 0x80 then
    return b, 1
  end
  local n, cp, min
  if b >= 0xC2 and b <= 0xDF then
    n, cp, min = 1, b - 0xC0, 0x80
  elseif b >= 0xE0 and b <= 0xEF then
    n, cp, min = 2, b - 0xE0, 0x800
  elseif b >= 0xF0 and b <= 0xF4 then
    n, cp, min = 3, b - 0xF0, 0x10000
  else
    return nil
  end
  for k = 1, n do
    local c = s:byte(i + k)
    if not c or c < 0x80 or c > 0xBF then
      return nil
    end
    cp = cp * 64 + (c - 0x80)
  end
  if cp < min or cp > 0x10FFFF or (cp >= 0xD800 and cp <= 0xDFFF) then
    return nil
  end
  return cp, n + 1
end

-- chars calls f(piece, cp) for each character of s: cp is nil for a byte
-- that is not valid UTF-8.
local function chars(s, f)
  local i = 1
  while i <= #s do
    local cp, n = decode(s, i)
    f(s:sub(i, i + (n or 1) - 1), cp)
    i = i + (n or 1)
  end
end

local named = { [7] = '\\a', [8] = '\\b', [9] = '\\t', [10] = '\\n', [11] = '\\v', [12] = '\\f', [13] = '\\r' }

-- ansi_c is s in bash's $'…' quoting, every hidden character and invalid
-- byte escaped (syntax.Quote's spelling: \n, \x1b, \u202e, \U000e0041).
local function ansi_c(s)
  local out = { "$'" }
  chars(s, function(piece, cp)
    if cp == nil then
      table.insert(out, string.format('\\x%02x', piece:byte(1)))
    elseif piece == "'" or piece == '\\' then
      table.insert(out, '\\' .. piece)
    elseif not hidden(cp) then
      table.insert(out, piece)
    elseif named[cp] then
      table.insert(out, named[cp])
    elseif cp < 0x80 then
      table.insert(out, string.format('\\x%02x', cp))
    elseif cp < 0x10000 then
      table.insert(out, string.format('\\u%04x', cp))
    else
      table.insert(out, string.format('\\U%08x', cp))
    end
  end)
  table.insert(out, "'")
  return table.concat(out)
end

-- keywords are bash's reserved words (syntax.IsKeyword): shown quoted.
local keywords = {}
for _, k in ipairs({ '!', '[[', ']]', 'case', 'coproc', 'do', 'done', 'else', 'esac', 'fi', 'for',
  'function', 'if', 'in', 'select', 'then', 'time', 'until', 'while', '{', '}' }) do
  keywords[k] = true
end

-- visible is one field as the user is shown it, as gate.Visible shows it:
-- as is when plain; in $'…' when a character is hidden or a byte is not
-- UTF-8; else in single quotes (double when it holds one) when a
-- character means something to a shell, such as a space or a quote, or
-- it is a reserved word, so the field's ends are plain to see.
function M.visible(s)
  s = tostring(s or '')
  if s == '' then
    return "''"
  end
  local special, bad = false, false
  chars(s, function(piece, cp)
    if cp == nil or hidden(cp) then
      bad = true
    elseif piece:find('^[;"\'()$|&><`\\#{~*?[= ]$') then
      special = true
    end
  end)
  if bad then
    return ansi_c(s)
  end
  if not special and not keywords[s] then
    return s
  end
  if not s:find("'", 1, true) then
    return "'" .. s .. "'"
  end
  return '"' .. s:gsub('[\\"`$]', '\\%0') .. '"'
end

-- visible_text is the step as shown: newlines and tabs kept, each hidden
-- character or invalid byte alone escaped as M.visible escapes it.
function M.visible_text(s)
  local out = {}
  chars(tostring(s or ''), function(piece, cp)
    if cp ~= nil and (cp == 10 or cp == 9 or not hidden(cp)) then
      table.insert(out, piece)
    else
      table.insert(out, ansi_c(piece))
    end
  end)
  return table.concat(out)
end

-- continued starts the rest of a line too wide for the screen: the
-- screen would wrap it to the margin, where the rest could pose as a line
-- of the dialog's own (a step padded with spaces up to "[Allow]").
local continued = '  \226\134\170 ' -- U+21AA, spelled in bytes for Lua 5.1

-- fold breaks each line wider than width cells into pieces, each after
-- the first starting with continued; width is at least 20.
local function fold(lines, width)
  width = math.max(20, width)
  local out = {}
  for _, line in ipairs(lines) do
    if vim.fn.strdisplaywidth(line) <= width then
      table.insert(out, line)
    else
      local piece, used = '', 0
      for i = 0, vim.fn.strchars(line) - 1 do
        local c = vim.fn.strcharpart(line, i, 1)
        local w = vim.fn.strdisplaywidth(c)
        if used + w > width then
          table.insert(out, piece)
          piece, used = continued, vim.fn.strdisplaywidth(continued)
        end
        piece, used = piece .. c, used + w
      end
      table.insert(out, piece)
    end
  end
  return out
end

-- message is the dialog's text: who asks, the step as the server sent it
-- (every line indented), where, its effects and by when it is denied
-- unanswered, folded to width cells (default: the screen's width less
-- one). Every line but the first starts with a word of the dialog's own,
-- with the step's indent, or with the mark of a folded line.
function M.message(params, width)
  local session = type(params.session) == 'string' and M.visible(params.session) or '?'
  local who
  if type(params.agent) == 'string' and params.agent ~= '' then
    who = string.format('The subagent %s (session %s)', M.visible(params.agent), session)
  else
    who = string.format('The agent of session %s', session)
  end
  local step = tonumber(params.step) or 0
  local what = step > 0 and string.format('asks to run step %d:', step)
    or (params.cell == true and 'asks to run an ipython cell:' or 'asks for:')
  local lines = { 'eukhe: ' .. who .. ' ' .. what, '' }
  for line in (M.visible_text(params.text) .. '\n'):gmatch('(.-)\n') do
    table.insert(lines, '    ' .. line)
  end
  table.insert(lines, '')
  if type(params.cwd) == 'string' and params.cwd ~= '' then
    table.insert(lines, 'in ' .. M.visible(params.cwd))
  end
  if type(params.effects) == 'table' and #params.effects > 0 then
    local names = {}
    for _, e in ipairs(params.effects) do
      table.insert(names, M.visible(e))
    end
    table.insert(lines, 'effects: ' .. table.concat(names, ', '))
  end
  local due = M.deadline_text(params.deadline)
  if due then
    table.insert(lines, due)
  end
  table.insert(lines, 'Enter or Esc denies.')
  return table.concat(fold(lines, width or vim.o.columns - 1), '\n')
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
