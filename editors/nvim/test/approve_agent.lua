-- An agent over `eukhe mcp` (attached to the server Neovim runs) runs a
-- shell step that needs approval: the server asks Neovim with
-- eukhe/approve; the scripted user presses the button $EUKHE_BUTTON in
-- the vim.fn.confirm dialog (stubbed here, in the test); the agent's
-- reply says what happened.
local h = dofile(os.getenv('EUKHE_HARNESS'))
h.run(function()
  local button = tonumber(os.getenv('EUKHE_BUTTON'))
  local asked = {}
  vim.fn.confirm = function(msg, choices, default)
    table.insert(asked, { msg = msg, choices = choices, default = default })
    return button
  end
  require('eukhe').setup({ cmd = h.bin })
  h.client(h.open('a.txt'))
  h.socket() -- the agent must find the server, else it runs headless
  local agent = h.agent()
  h.results.reply = agent.call(2, 'bash', { script = 'echo made > made.txt' })
  h.results.asked = asked
  agent.stop()
end)
