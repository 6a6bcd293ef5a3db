package agent

// Version is eukhe's version as MCP peers see it (serverInfo, clientInfo).
const Version = "0.1.0"
