/** The assistant endpoint (Model Context Protocol): its routes and its tools. */
export { mcpRoutes } from './mcp.routes.ts';
export { TOOLS as MCP_TOOLS } from './mcp.tools.ts';
