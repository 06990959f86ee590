/**
 * The assistant endpoint: the Model Context Protocol over Streamable HTTP at /api/mcp, stateless
 * (one server and transport per request, JSON answers, no session to keep), for a person's own
 * API token. A read token is shown and may call only the read tools.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Errors } from '../../lib/errors.ts';
import { userOf } from '../../plugins/auth.ts';
import { pickLang, say } from './mcp.text.ts';
import { type CallResult, type ToolContext, type ToolDef, TOOLS, ToolRefusal } from './mcp.tools.ts';

const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer(), Type.Null()])),
    method: Type.Optional(Type.String({ maxLength: 200 })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'JsonRpcMessage', description: 'one JSON-RPC 2.0 message of the Model Context Protocol' },
);

const JsonRpcAnswer = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'JsonRpcAnswer' },
);

/** the person's own operations, in their name: the same token, through every hook of the app */
function callerOf(app: FastifyInstance, req: FastifyRequest): ToolContext['call'] {
  const authorization = req.headers.authorization!;
  const forwarded = { authorization, 'user-agent': `mcp ${req.headers['user-agent'] ?? ''}`.slice(0, 200) };
  return async <T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(body === undefined ? {} : { payload: body as object }),
      headers: { ...forwarded, ...headers, 'x-request-id': `${req.id}` },
      remoteAddress: req.ip,
    });
    let parsed: unknown;
    try {
      parsed = res.body ? JSON.parse(res.body) : null;
    } catch {
      parsed = { message: res.body.slice(0, 200) };
    }
    return { status: res.statusCode, body: parsed as T, headers: res.headers } satisfies CallResult<T>;
  };
}

function serverFor(app: FastifyInstance, req: FastifyRequest, canWrite: boolean): McpServer {
  const server = new McpServer(
    { name: 'ledger', title: 'Bookkeeping', version: app.config.version },
    { capabilities: { tools: {} } },
  );
  const call = callerOf(app, req);
  const visible = TOOLS.filter((t) => canWrite || !t.write);
  for (const tool of visible) register(app, server, tool, call, req.headers['accept-language']);
  return server;
}

function register(
  app: FastifyInstance,
  server: McpServer,
  tool: ToolDef,
  call: ToolContext['call'],
  acceptLanguage: string | undefined,
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      annotations: { readOnlyHint: !tool.write, destructiveHint: false, idempotentHint: !tool.write },
    },
    async (args: Record<string, unknown>) => {
      const lang = pickLang(acceptLanguage, Object.values(args));
      try {
        const answer = await tool.run({ lang, call }, args);
        return { content: [{ type: 'text' as const, text: answer.text }], structuredContent: answer.data };
      } catch (err) {
        if (!(err instanceof ToolRefusal)) {
          app.log.error({ err, tool: tool.name }, 'assistant tool failed');
          throw err;
        }
        return {
          isError: true,
          content: [{ type: 'text' as const, text: say.refused(lang, err.message) }],
          structuredContent: { code: err.code, message: err.message },
        };
      }
    },
  );
}

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/api/mcp',
    {
      config: { scopePerOperation: true },
      schema: {
        summary: 'The Model Context Protocol for assistants (Streamable HTTP, stateless, JSON answers)',
        description:
          'For a personal API token only (another credential: 40301). A `read` token lists and calls the read tools ' +
          '(search, summaries, category shares, budget, accounts and net worth, groups, balances); a `write` token ' +
          'also ' +
          'records entries, shared expenses and settlements. Each tool calls the same operations as this API, with ' +
          'the ' +
          'same access checks, rate limits and idempotency keys. Send `Accept: application/json, text/event-stream`. ' +
          'A notification or a response from the client is answered 202 without a body.',
        body: JsonRpcMessage,
        response: { 200: JsonRpcAnswer, 202: Type.Null({ description: 'a notification, accepted' }) },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (!user.apiToken) throw Errors.forbidden('the assistant endpoint takes a personal API token (lgr_...)');
      const canWrite = user.apiToken.scopes.includes('write');
      const server = serverFor(app, req, canWrite);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const request = new Request(`http://localhost${req.url}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: String(req.headers.accept ?? 'application/json, text/event-stream'),
            ...(req.headers['mcp-protocol-version']
              ? { 'mcp-protocol-version': String(req.headers['mcp-protocol-version']) }
              : {}),
          },
          body: JSON.stringify(req.body),
        });
        const res = await transport.handleRequest(request, { parsedBody: req.body });
        const text = await res.text();
        reply.code(res.status as 200);
        res.headers.forEach((value, name) => {
          if (name !== 'content-length' && name !== 'content-type') reply.header(name, value);
        });
        if (!text) return reply.send(null);
        return reply.type(res.headers.get('content-type') ?? 'application/json').send(text);
      } finally {
        await server.close();
      }
    },
  );
  // Stateless: no stream to open (GET) and no session to end (DELETE); those methods answer 405 with Allow
}
