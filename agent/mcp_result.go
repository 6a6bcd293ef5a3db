package agent

import "github.com/modelcontextprotocol/go-sdk/mcp"

// mcpResult is the one place a result becomes MCP content: its text parts,
// each run of them as one text content, and each image as image content
// (its MIME type and bytes), in order; isError from the outcome. A result
// without parts is one empty text, as every reply has been.
func (r Result) mcpResult() *mcp.CallToolResult {
	var content []mcp.Content
	var text *mcp.TextContent
	for _, p := range r.Parts {
		switch p.Kind {
		case ImagePart:
			content = append(content, &mcp.ImageContent{MIMEType: p.MIME, Data: p.Data})
			text = nil
		default:
			if text == nil {
				text = &mcp.TextContent{}
				content = append(content, text)
			}
			text.Text += p.Text
		}
	}
	if len(content) == 0 {
		content = []mcp.Content{&mcp.TextContent{}}
	}
	return &mcp.CallToolResult{Content: content, IsError: r.Failed()}
}
