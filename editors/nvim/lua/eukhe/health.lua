-- :checkhealth eukhe — the binary and its version, this Neovim's support,
-- the servers running, the settings files and the discovery socket directory.
local M = {}

local uv = vim.loop

-- report gives start/ok/info/warn/error on every Neovim: vim.health on
-- 0.9+ (start, ok, …), the health module's report_* on 0.7 and 0.8.
local function report()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

local function run(argv)
  local out = vim.fn.system(argv)
  return vim.v.shell_error, vim.trim(out or '')
end

-- socket_dir is where eukhe lsp puts its discovery socket.
local function socket_dir()
  local rt = os.getenv('XDG_RUNTIME_DIR')
  if rt and rt ~= '' then
    return rt .. '/eukhe'
  end
  return '/tmp/eukhe-' .. uv.getuid()
end

-- settings_files are the user's settings file and the project file of
-- each running server's root (where eukhe lsp reads them).
local function settings_files(roots)
  local cfg = os.getenv('XDG_CONFIG_HOME')
  if not cfg or cfg:sub(1, 1) ~= '/' then
    cfg = vim.fn.expand('~/.config')
  end
  local files = { cfg .. '/eukhe/settings.json' }
  for root in pairs(roots) do
    table.insert(files, root .. '/.eukhe/settings.json')
  end
  return files
end

-- server_settings asks a running server (eukhe/settingsStatus) about the
-- settings files it reads: its own verdict, keys and values included.
-- It reports and returns true when a server answered.
local function server_settings(r, roots)
  for _, id in pairs(roots) do
    local c = vim.lsp.get_client_by_id(id)
    if c and not (c.is_stopped and c.is_stopped()) then
      local res = c.request_sync('eukhe/settingsStatus', vim.empty_dict(), 3000)
      if res and res.result and res.result.files then
        local conf = res.result.confinement
        if conf then
          if conf:match('^none') then
            r.warn('confinement: ' .. conf .. '; a step\'s programs run with all your rights')
          else
            r.ok('confinement: ' .. conf)
          end
        end
        for _, f in ipairs(res.result.files) do
          if f.level == 'ok' and not uv.fs_stat(f.file) then
            r.info(f.file .. ': not present (it sets nothing; the defaults stand)')
          elseif f.level == 'ok' then
            r.ok(f.file .. ': in force')
          else
            local report = f.level == 'error' and r.error or r.warn
            report(f.file .. ': ' .. table.concat(f.problems or {}, '; ')
              .. (f.level == 'error' and ' (the last good settings stay in force)' or ''))
          end
        end
        return true
      end
    end
  end
  return false
end

-- check_settings reports, without a server, whether each settings file
-- present is JSON (the server validates keys and values: server_settings).
local function check_settings(r, roots)
  local decode = vim.json and vim.json.decode or vim.fn.json_decode
  for _, file in ipairs(settings_files(roots)) do
    local f = io.open(file, 'r')
    if f then
      local text = f:read('*a')
      f:close()
      local ok, err = pcall(decode, text)
      if ok then
        r.ok(file .. ' is valid JSON')
      else
        r.error(string.format('%s is not valid JSON: %s; eukhe ignores it and keeps the last good settings',
          file, tostring(err):gsub('^.-:%d+: ', '')))
      end
    else
      r.info(file .. ': not present (it sets nothing; the defaults stand)')
    end
  end
end

function M.check()
  local r = report()
  local client = require('eukhe.client')

  r.start('eukhe: Neovim')
  if vim.lsp.start or (vim.lsp.start_client and vim.lsp.buf_attach_client) then
    if vim.api.nvim_create_autocmd and vim.api.nvim_create_user_command and vim.keymap then
      r.ok('this Neovim has what the plugin needs (' .. (vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client') .. ')')
    else
      r.error('this Neovim is too old: the plugin needs Neovim 0.7 or later')
    end
  else
    r.error('this Neovim has no built-in LSP client: the plugin needs Neovim 0.7 or later')
  end

  r.start('eukhe: binary')
  local bin, msg, where = client.binary()
  if not bin then
    r.error(msg)
  else
    local code, out = run({ bin[1], '--help' })
    if code ~= 0 or not out:find('eukhe lsp', 1, true) then
      r.error(bin[1] .. ' does not run as eukhe (`' .. bin[1] .. ' --help` exited ' .. code .. '); reinstall it or fix opts.cmd')
    else
      r.ok('found: ' .. table.concat(bin, ' ') .. (where and (' (from ' .. where .. ')') or ''))
      local vcode, version = run({ bin[1], '--version' })
      if vcode == 0 and version ~= '' then
        r.ok('version: ' .. version)
      else
        r.info('this eukhe build reports no version (`eukhe --version`)')
      end
    end
  end

  r.start('eukhe: servers')
  local roots = client.roots()
  local n = 0
  for root, id in pairs(roots) do
    local c = vim.lsp.get_client_by_id(id)
    if c and not (c.is_stopped and c.is_stopped()) then
      n = n + 1
      local info = c.server_info and c.server_info.version and (' version ' .. c.server_info.version) or ''
      local ex = c.server_capabilities and c.server_capabilities.experimental
        and c.server_capabilities.experimental.eukhe
      local methods = ex and ex.methods and table.concat(ex.methods, ', ') or 'no eukhe/* methods'
      r.ok(string.format('running for %s (client %d%s; serves %s)', root, id, info, methods))
    else
      r.warn('the server for ' .. root .. ' has stopped; see :LspLog, then :EukheStart in a buffer there')
    end
  end
  local cwd_root = vim.fn.getcwd()
  if n == 0 then
    r.warn('no eukhe server is running', {
      "call require('eukhe').setup() in your config, then open a file under a workspace root",
      'or run :EukheStart in a file buffer',
    })
  elseif not roots[cwd_root] then
    r.info('no server for the current directory ' .. cwd_root .. ' (open a file there to start one)')
  end

  r.start('eukhe: settings')
  if not server_settings(r, roots) then
    check_settings(r, roots)
  end

  r.start('eukhe: discovery socket')
  local dir = socket_dir()
  local st = uv.fs_stat(dir)
  if not st then
    r.info(dir .. ' does not exist yet: agents started with `eukhe mcp` find the editor\'s server through it once the server creates it')
  elseif st.type ~= 'directory' then
    r.error(dir .. ' is not a directory; remove it so eukhe lsp can create its socket directory there')
  elseif st.uid ~= uv.getuid() then
    r.error(dir .. ' belongs to another user; remove it (eukhe needs its own 0700 directory)')
  elseif st.mode % 512 ~= 448 then
    r.error(string.format('%s has mode %o, not 700: other users could reach the server; chmod 700 %s',
      dir, st.mode % 512, dir))
  else
    local socks = 0
    local scan = uv.fs_scandir(dir)
    while scan do
      local name = uv.fs_scandir_next(scan)
      if not name then break end
      if name:match('%.sock$') then socks = socks + 1 end
    end
    r.ok(string.format('%s (mode 700)%s', dir, socks > 0 and (', ' .. socks .. ' socket(s)') or ''))
  end
end

return M
