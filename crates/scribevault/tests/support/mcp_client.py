"""The official MCP Python SDK against Scribevault's /mcp: lists the tools and calls them as a
member would through an assistant. Prints one JSON object for the Rust test to check.

    mcp_client.py BASE_URL TOKEN QUERY OTHER_USERS_ITEM_ID
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


def text_of(result):
    return json.loads(result.content[0].text) if result.content else None


async def main(base, token, query, other_id):
    headers = {"Authorization": f"Bearer {token}"}
    async with streamablehttp_client(f"{base}/mcp", headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            search = await session.call_tool("search_vault", {"query": query})
            found = text_of(search)
            first = found["items"][0]["id"] if found["items"] else None
            transcript = await session.call_tool("get_transcript", {"id": first}) if first else None
            tags = await session.call_tool("list_tags", {})
            other = await session.call_tool("get_transcript", {"id": other_id})
            bad_mode = await session.call_tool("search_vault", {"query": query, "mode": "fuzzy"})
            print(json.dumps({
                "server": init.serverInfo.name,
                "tools": sorted(tool.name for tool in tools.tools),
                "search": found,
                "transcript": text_of(transcript) if transcript else None,
                "tags": text_of(tags),
                "other": {"isError": other.isError, "text": other.content[0].text if other.content else ""},
                "bad_mode": {"isError": bad_mode.isError, "text": bad_mode.content[0].text if bad_mode.content else ""},
            }))


asyncio.run(main(*sys.argv[1:5]))
