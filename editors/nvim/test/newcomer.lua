-- A newcomer's first minutes, in one scenario chosen by $EUKHE_CASE:
--   cmd_lsp     setup({cmd = {BIN, 'lsp'}}) (lspconfig's habit) starts the
--               server; {BIN, 'lsp', '--stdio'} is refused with a message
--   gobin       setup() finds eukhe in $GOBIN or $(go env GOPATH)/bin
--   health      :checkhealth eukhe says "not present" for settings files
--               that do not exist, before and after a server runs
--   logmessage  the server's log lines arrive as window/logMessage of
--               type Log, none of type Error
local h = dofile(os.getenv('EUKHE_HARNESS'))
local case = os.getenv('EUKHE_CASE')

local function health()
  vim.cmd('checkhealth eukhe')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout!')
  return text
end

h.run(function()
  if case == 'cmd_lsp' then
    require('eukhe').setup({ cmd = { h.bin, 'lsp' } })
    local a = h.open('a.txt')
    local c = h.client(a)
    h.results.cmd = c.config.cmd
    require('eukhe').setup({ cmd = { h.bin, 'lsp', '--stdio' }, autostart = false })
    local bin, msg = require('eukhe.client').binary()
    h.results.refused = bin == nil
    h.results.msg = msg
  elseif case == 'gobin' then
    require('eukhe').setup({ autostart = false })
    local bin, msg, where = require('eukhe.client').binary()
    h.results.bin = bin and bin[1] or ''
    h.results.msg = msg or ''
    h.results.where = where or ''
  elseif case == 'health' then
    require('eukhe').setup({ cmd = h.bin, autostart = false })
    h.results.before = health()
    require('eukhe').setup({ cmd = h.bin })
    h.client(h.open('a.txt'))
    h.results.after = health()
  elseif case == 'logmessage' then
    local got = {}
    vim.lsp.handlers['window/logMessage'] = function(_, result)
      table.insert(got, { type = result.type, message = result.message })
    end
    require('eukhe').setup({ cmd = h.bin })
    h.client(h.open('a.txt'))
    h.wait('a log line about the settings', function()
      for _, m in ipairs(got) do
        if m.message:find('settings', 1, true) then
          return true
        end
      end
      return false
    end)
    h.results.messages = got
  end
end)
