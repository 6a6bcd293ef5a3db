-- Inline review (eukhe/review, eukhe/reviewDecision): the hunks of each
-- edit an agent landed are shown in their buffers with extmarks (added
-- and changed lines highlighted, removed lines as virtual lines above),
-- follow later edits, and disappear when kept or undone. The server
-- decides what an undo does; this module only asks and shows.
local M = {}

local ns = vim.api.nvim_create_namespace('eukhe_review')
M.ns = ns

-- pending holds the hunks not decided yet, in the order announced:
-- {client_id, edit, uri, hunk, range, before, after, bufnr, mark}.
local pending = {}

function M.define_highlights()
  local function link(name, to)
    vim.api.nvim_set_hl(0, name, { link = to, default = true })
  end
  link('EukheAdded', 'DiffAdd')
  link('EukheRemoved', 'DiffDelete')
  link('EukheSign', 'DiffChange')
end

local function lines_of(text)
  if text == nil or text == '' then
    return {}
  end
  local ls = vim.split(text, '\n', { plain = true })
  if ls[#ls] == '' then
    table.remove(ls)
  end
  return ls
end

local function loaded_buf(uri)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.api.nvim_buf_get_name(b) ~= '' and vim.uri_from_bufnr(b) == uri then
      return b
    end
  end
  return nil
end

-- rows gives a hunk's first row and its end row (exclusive) as announced.
local function rows(h)
  local s, e = h.range.start, h.range['end']
  local stop = e.line
  if e.character > 0 then
    stop = stop + 1
  end
  return s.line, stop
end

local function mark_valid(h)
  return h.bufnr and h.mark and vim.api.nvim_buf_is_loaded(h.bufnr)
    and #vim.api.nvim_buf_get_extmark_by_id(h.bufnr, ns, h.mark, {}) > 0
end

-- place shows a hunk in a loaded buffer.
local function place(h, bufnr)
  local n = vim.api.nvim_buf_line_count(bufnr)
  local start, stop = rows(h)
  local removed = {}
  for _, l in ipairs(lines_of(h.before)) do
    table.insert(removed, { { '- ' .. l, 'EukheRemoved' } })
  end
  local opts = { sign_hl_group = 'EukheSign', priority = 20 }
  local added = stop > start
  if added and #removed > 0 then
    opts.sign_text = '~'
  elseif added then
    opts.sign_text = '+'
  else
    opts.sign_text = '-'
  end
  local row = math.min(start, n - 1)
  if added then
    local last = math.min(stop, n) - 1
    local text = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1] or ''
    opts.end_row = last
    opts.end_col = #text
    opts.hl_group = 'EukheAdded'
    opts.hl_eol = true
  end
  local virt = nil
  if #removed > 0 then
    virt = { virt_lines = removed, virt_lines_above = start < n, priority = 20 }
    if not added then
      opts.virt_lines, opts.virt_lines_above = virt.virt_lines, virt.virt_lines_above
      virt = nil
    end
  end
  h.bufnr = bufnr
  h.mark = vim.api.nvim_buf_set_extmark(bufnr, ns, row, 0, opts)
  -- Neovim 0.7 draws the virtual lines of a mark with an end twice (at
  -- its start and its end): the removed lines of a changed hunk go on a
  -- mark of their own, at the hunk's first row.
  if virt then
    h.vmark = vim.api.nvim_buf_set_extmark(bufnr, ns, row, 0, virt)
  end
end

local function unplace(h)
  if h.bufnr and vim.api.nvim_buf_is_valid(h.bufnr) then
    for _, m in ipairs({ h.mark, h.vmark }) do
      pcall(vim.api.nvim_buf_del_extmark, h.bufnr, ns, m)
    end
  end
  h.mark, h.vmark = nil, nil
end

-- where gives a hunk's first and last row (0-based) now, following the
-- edits since it was shown, or its announced rows for a closed file.
local function where(h)
  if mark_valid(h) then
    local m = vim.api.nvim_buf_get_extmark_by_id(h.bufnr, ns, h.mark, { details = true })
    local last = m[3] and m[3].end_row or m[1]
    return m[1], last
  end
  local s, e = rows(h)
  return s, math.max(s, e - 1)
end

local function set_keymaps(bufnr)
  if vim.b[bufnr].eukhe_keymaps then
    return
  end
  vim.b[bufnr].eukhe_keymaps = true
  local km = require('eukhe').config.keymaps or {}
  local function map(key, fn, desc)
    if key and key ~= '' then
      vim.keymap.set('n', key, fn, { buffer = bufnr, desc = 'eukhe: ' .. desc, silent = true })
    end
  end
  map(km.next, function() M.jump(1) end, 'next review hunk')
  map(km.prev, function() M.jump(-1) end, 'previous review hunk')
  map(km.keep, function() M.decide_cursor('keep') end, 'keep the hunk under the cursor')
  map(km.undo, function() M.decide_cursor('undo') end, 'undo the hunk under the cursor')
  map(km.keep_file, function() M.decide_file('keep') end, 'keep every hunk in this file')
  map(km.undo_file, function() M.decide_file('undo') end, 'undo every hunk in this file')
end

-- show_buffer places the pending hunks of a buffer's file (when it is
-- opened after the edit).
function M.show_buffer(bufnr)
  if vim.api.nvim_buf_get_name(bufnr) == '' then
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local any = false
  for _, h in ipairs(pending) do
    if h.uri == uri and not mark_valid(h) then
      place(h, bufnr)
      any = true
    end
  end
  if any then
    set_keymaps(bufnr)
  end
end

-- add shows the hunks of an eukhe/review notification.
function M.add(params, client_id)
  if not params or not params.hunks then
    return
  end
  for _, p in ipairs(params.hunks) do
    local h = {
      client_id = client_id, edit = params.editId, uri = p.uri, hunk = p.hunk,
      range = p.range, before = p.before or '', after = p.after or '',
    }
    table.insert(pending, h)
    local b = loaded_buf(p.uri)
    if b then
      place(h, b)
      set_keymaps(b)
    end
  end
  if #vim.api.nvim_get_autocmds({ event = 'User', pattern = 'EukheReview' }) > 0 then
    vim.api.nvim_exec_autocmds('User', { pattern = 'EukheReview', modeline = false })
  end
end

-- hunks gives the pending hunks, with their rows now (1-based lnum), for
-- :EukheReview and for tests.
function M.hunks(bufnr)
  local out = {}
  local uri = bufnr and vim.uri_from_bufnr(bufnr)
  for _, h in ipairs(pending) do
    if not uri or h.uri == uri then
      local first, last = where(h)
      table.insert(out, {
        edit = h.edit, uri = h.uri, hunk = h.hunk, lnum = first + 1, end_lnum = last + 1,
        before = h.before, after = h.after, shown = mark_valid(h),
      })
    end
  end
  return out
end

local function drop(selected)
  local keep = {}
  for _, h in ipairs(pending) do
    if selected[h] then
      unplace(h)
    else
      table.insert(keep, h)
    end
  end
  pending = keep
end

-- send asks the server to decide: one request per (client, edit), with
-- the uri and hunk when the selection is narrower than the edit.
local function send(selection, decision, scope)
  local groups, order = {}, {}
  for _, h in ipairs(selection) do
    if not h.deciding then
      local k = tostring(h.client_id) .. '\0' .. h.edit
      if not groups[k] then
        groups[k] = { client_id = h.client_id, edit = h.edit, hunks = {} }
        table.insert(order, k)
      end
      table.insert(groups[k].hunks, h)
    end
  end
  for _, k in ipairs(order) do
    local g = groups[k]
    local client = vim.lsp.get_client_by_id(g.client_id)
    if not client then
      vim.notify('eukhe: the server that made edit ' .. g.edit .. ' is gone; its hunks can no longer be decided',
        vim.log.levels.WARN)
      local sel = {}
      for _, h in ipairs(g.hunks) do sel[h] = true end
      drop(sel)
    else
      local params = { editId = g.edit, decision = decision }
      if scope ~= 'all' then
        params.uri = g.hunks[1].uri
      end
      if scope == 'hunk' then
        params.hunk = g.hunks[1].hunk
      end
      for _, h in ipairs(g.hunks) do h.deciding = true end
      client.request('eukhe/reviewDecision', params, function(err, result)
        local sel = {}
        for _, h in ipairs(g.hunks) do
          h.deciding = nil
          sel[h] = true
        end
        if err then
          vim.notify('eukhe: ' .. decision .. ' failed: ' .. tostring(err.message or vim.inspect(err)), vim.log.levels.ERROR)
          return
        end
        if result and result.applied then
          drop(sel)
          if decision == 'undo' then
            vim.notify('eukhe: ' .. tostring(result.message), vim.log.levels.INFO)
          end
        else
          vim.notify('eukhe: ' .. tostring(result and result.message or decision .. ' was not applied'),
            vim.log.levels.WARN)
        end
      end, g.hunks[1].bufnr)
    end
  end
end

-- at_cursor gives the pending hunk under the cursor of the current window.
local function at_cursor()
  local bufnr = vim.api.nvim_get_current_buf()
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, h in ipairs(pending) do
    if h.bufnr == bufnr and mark_valid(h) then
      local first, last = where(h)
      if row >= first and row <= last then
        return h
      end
    end
  end
  return nil
end

function M.decide_cursor(decision)
  local h = at_cursor()
  if not h then
    vim.notify('eukhe: no agent edit under the cursor to ' .. decision
      .. '; :EukheReview lists them', vim.log.levels.WARN)
    return
  end
  send({ h }, decision, 'hunk')
end

-- decide_file keeps or undoes every pending hunk of the current file.
function M.decide_file(decision)
  local name = vim.api.nvim_buf_get_name(0)
  local uri = name ~= '' and vim.uri_from_bufnr(0)
  local sel = {}
  for _, h in ipairs(pending) do
    if h.uri == uri then table.insert(sel, h) end
  end
  if #sel == 0 then
    vim.notify('eukhe: no agent edit to ' .. decision .. ' in this file', vim.log.levels.WARN)
    return
  end
  send(sel, decision, 'file')
end

-- decide_all keeps or undoes every pending hunk of every file.
function M.decide_all(decision)
  if #pending == 0 then
    vim.notify('eukhe: no agent edit under review', vim.log.levels.INFO)
    return
  end
  send(vim.list_slice(pending, 1, #pending), decision, 'all')
end

-- jump moves the cursor to the next (dir 1) or previous (-1) hunk of the
-- current buffer, wrapping around.
function M.jump(dir)
  local bufnr = vim.api.nvim_get_current_buf()
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local starts = {}
  for _, h in ipairs(M.hunks(bufnr)) do
    table.insert(starts, h.lnum)
  end
  if #starts == 0 then
    vim.notify('eukhe: no agent edit under review in this file', vim.log.levels.INFO)
    return
  end
  table.sort(starts)
  local target
  if dir > 0 then
    target = starts[1]
    for _, s in ipairs(starts) do
      if s > row then target = s break end
    end
  else
    target = starts[#starts]
    for i = #starts, 1, -1 do
      if starts[i] < row then target = starts[i] break end
    end
  end
  vim.api.nvim_win_set_cursor(0, { target, 0 })
end

-- quickfix fills the quickfix list with every pending hunk and opens it.
function M.quickfix()
  local items = {}
  for _, h in ipairs(M.hunks()) do
    local added, removed = #lines_of(h.after), #lines_of(h.before)
    local first = lines_of(h.after)[1] or lines_of(h.before)[1] or ''
    table.insert(items, {
      filename = vim.uri_to_fname(h.uri), lnum = h.lnum, end_lnum = h.end_lnum,
      text = string.format('agent edit %s, hunk %d: +%d -%d  %s', h.edit, h.hunk, added, removed, first),
    })
  end
  vim.fn.setqflist({}, ' ', { title = 'eukhe: agent edits under review', items = items })
  if #items == 0 then
    vim.notify('eukhe: no agent edit under review', vim.log.levels.INFO)
  end
  return items
end

return M
