-- Starting `eukhe lsp`: one client per workspace root, attached to the
-- buffers under it. The registry (root -> client id) is the plugin's one
-- piece of module state about clients.
local M = {}

local uv = vim.loop

-- roots maps a workspace root to its client's id.
local roots = {}

local function config()
  return require('eukhe').config
end

local function is_dir(p)
  local st = uv.fs_stat(p)
  return st ~= nil and st.type == 'directory'
end

local function exists(p)
  return uv.fs_stat(p) ~= nil
end

local function parent(p)
  local d = vim.fn.fnamemodify(p, ':h')
  if d == p then
    return nil
  end
  return d
end

-- under tells whether path is dir or inside it.
local function under(path, dir)
  if dir:sub(-1) ~= '/' then
    dir = dir .. '/'
  end
  return path == dir:sub(1, -2) or path:sub(1, #dir) == dir
end

-- root_of gives the workspace root of a buffer, or nil when it has none.
function M.root_of(bufnr)
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  name = vim.fn.fnamemodify(name, ':p')
  local cfg = config()
  if cfg.root_dir then
    return cfg.root_dir(bufnr)
  end
  local dir = parent(name)
  while dir do
    for _, m in ipairs(cfg.root_markers or {}) do
      if exists(dir .. '/' .. m) then
        return dir
      end
    end
    dir = parent(dir)
  end
  local cwd = vim.fn.getcwd()
  if under(name, cwd) then
    return cwd
  end
  return nil
end

-- go_bins are where `go install` puts eukhe: $GOBIN, then
-- $(go env GOPATH)/bin (each entry of a GOPATH list), then ~/go/bin.
local function go_bins()
  local dirs = {}
  local gobin = os.getenv('GOBIN')
  if gobin and gobin ~= '' then
    table.insert(dirs, gobin)
  end
  if vim.fn.executable('go') == 1 then
    local out = vim.fn.system({ 'go', 'env', 'GOBIN', 'GOPATH' })
    if vim.v.shell_error == 0 then
      local lines = vim.split(out, '\n')
      if lines[1] and lines[1] ~= '' and lines[1] ~= gobin then
        table.insert(dirs, lines[1])
      end
      for _, p in ipairs(vim.split(lines[2] or '', vim.fn.has('win32') == 1 and ';' or ':', { trimempty = true })) do
        table.insert(dirs, p .. '/bin')
      end
    end
  end
  table.insert(dirs, vim.fn.expand('~/go/bin'))
  return dirs
end

-- exe_name is the binary's file name here.
local function exe_name()
  return vim.fn.has('win32') == 1 and 'eukhe.exe' or 'eukhe'
end

-- plugin_bin is the plugin's own bin/ directory, where a release
-- archive's eukhe may be unpacked: the directory above lua/eukhe/ of this
-- file. nil when this file was not loaded from a file.
function M.plugin_bin()
  local src = debug.getinfo(1, 'S').source
  if type(src) ~= 'string' or src:sub(1, 1) ~= '@' then
    return nil
  end
  return vim.fn.fnamemodify(vim.fn.fnamemodify(src:sub(2), ':p'), ':h:h:h') .. '/bin'
end

-- binary gives the command that starts the server (a list ending before
-- `lsp`), or nil and a message saying what to do; third, where it was
-- found (for :checkhealth eukhe). It looks at opts.cmd, then the
-- plugin's own bin/, then PATH, then $GOBIN, $(go env GOPATH)/bin and
-- ~/go/bin. opts.cmd may end with
-- `lsp`, as lspconfig's cmd does ({'eukhe', 'lsp'}): that word is the
-- plugin's to add, so it is dropped; any other argument after it is
-- refused with a message.
function M.binary()
  local cmd = config().cmd
  if type(cmd) == 'string' then
    cmd = { cmd }
  end
  if cmd ~= nil and (type(cmd) ~= 'table' or type(cmd[1]) ~= 'string') then
    return nil, "eukhe: opts.cmd must be the eukhe binary's path or a list {'/path/to/eukhe'}; fix require('eukhe').setup({cmd = ...})"
  end
  if type(cmd) == 'table' and cmd[1] then
    cmd = vim.deepcopy(cmd)
    for i = 2, #cmd do
      if cmd[i] == 'lsp' then
        if i ~= #cmd then
          return nil, string.format(
            "eukhe: opts.cmd has arguments after 'lsp' (%s); the plugin adds 'lsp --root ROOT' itself: give cmd = {%q}",
            table.concat(cmd, ' ', i + 1), cmd[1])
        end
        cmd[i] = nil
      end
    end
    local exe = vim.fn.exepath(vim.fn.expand(cmd[1]))
    if exe == '' then
      return nil, string.format(
        "eukhe: opts.cmd names %q, which is not an executable; fix the path in require('eukhe').setup({cmd = ...})",
        cmd[1])
    end
    cmd[1] = exe
    return cmd, nil, 'opts.cmd'
  end
  local tried = {}
  local own = M.plugin_bin()
  if own then
    local p = own .. '/' .. exe_name()
    if vim.fn.executable(p) == 1 then
      return { p }, nil, "the plugin's own bin/"
    end
    table.insert(tried, own)
  end
  local exe = vim.fn.exepath('eukhe')
  if exe ~= '' then
    return { exe }, nil, 'PATH'
  end
  for _, dir in ipairs(go_bins()) do
    local p = dir .. '/' .. exe_name()
    if vim.fn.executable(p) == 1 then
      return { p }, nil, dir .. ' (where go install puts it)'
    end
    table.insert(tried, dir)
  end
  return nil, 'eukhe: the eukhe binary is not on PATH nor in ' .. table.concat(tried, ', ') .. '; '
    .. "unpack a release archive's eukhe into " .. (own or "the plugin's bin/") .. ', '
    .. 'or install it (go install github.com/eukhe/eukhe/cmd/eukhe@latest), '
    .. "or give its path: require('eukhe').setup({cmd = '/path/to/eukhe'})"
end

-- capabilities are Neovim's, plus experimental.eukhe naming the eukhe/*
-- methods this plugin implements and that its workspace/applyEdit handler
-- checks every document's version, 0 included (eukhe.applyedit). They
-- must not claim a transactional workspaceEdit.failureHandling: Neovim
-- does not roll back an edit that fails halfway, so the server is left to
-- send one workspace/applyEdit per document and to verify landing.
function M.capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = caps.experimental or {}
  caps.experimental.eukhe = { kind = 'nvim', methods = require('eukhe.handlers').methods(), checksVersions = true }
  return caps
end

-- get gives the live client of a root, or nil.
function M.get(root)
  local id = roots[root]
  if not id then
    return nil
  end
  local c = vim.lsp.get_client_by_id(id)
  if c == nil or (c.is_stopped and c.is_stopped()) then
    roots[root] = nil
    return nil
  end
  return c
end

-- for_buf gives the eukhe client attached to a buffer, or nil.
function M.for_buf(bufnr)
  local root = M.root_of(bufnr)
  return root and M.get(root)
end

-- roots gives a copy of the registry: root -> client id.
function M.roots()
  return vim.deepcopy(roots)
end

local warned = false

-- attach starts the server of the buffer's root if it is not running,
-- and attaches it to the buffer. It gives the client id, or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = M.root_of(bufnr)
  if not root then
    return nil
  end
  local live = M.get(root)
  if live then
    vim.lsp.buf_attach_client(bufnr, live.id)
    return live.id
  end
  local bin, msg = M.binary()
  if not bin then
    if not warned then
      warned = true
      vim.notify(msg, vim.log.levels.ERROR)
    end
    return nil
  end
  local cmd = vim.deepcopy(bin)
  vim.list_extend(cmd, { 'lsp', '--root', root })
  local conf = {
    name = 'eukhe',
    cmd = cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = M.capabilities(),
    handlers = require('eukhe.handlers').table(),
    -- The server sees an agent's edit land through the didChange that
    -- follows it: Neovim's default 150 ms debounce would hold every edit
    -- that long (opts.debounce overrides; incremental changes are cheap).
    flags = { debounce_text_changes = config().debounce or 0 },
    on_init = function(c)
      require('eukhe.tools').join(c)
    end,
    on_exit = function(code, signal)
      if code ~= 0 and signal == 0 then
        vim.schedule(function()
          vim.notify(string.format('eukhe: the server for %s exited with status %d; see :LspLog', root, code),
            vim.log.levels.WARN)
        end)
      end
    end,
  }
  local id
  if vim.lsp.start then
    -- vim.lsp.start attaches the buffer itself; reuse only our own root.
    id = vim.lsp.start(conf, {
      bufnr = bufnr,
      reuse_client = function(c, cf)
        return c.name == cf.name and c.config.root_dir == cf.root_dir
      end,
    })
  else
    id = vim.lsp.start_client(conf)
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  if not id then
    vim.notify('eukhe: could not start ' .. table.concat(cmd, ' ') .. '; see :LspLog', vim.log.levels.ERROR)
    return nil
  end
  roots[root] = id
  return id
end

return M
