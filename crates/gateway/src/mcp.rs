//! An MCP server over the Vault (issue 37): streamable HTTP at `/mcp`, for Claude Desktop, Open
//! WebUI or any MCP client. A caller is authenticated as on every other signed-in route (a
//! personal API token, `Authorization: Bearer svt_…`, or a session token), and every tool calls
//! the library as that member, so an assistant reads its owner's Vault and nothing else.
//!
//! rmcp (the official Rust SDK) speaks the protocol; `rmcp-actix-web` mounts it in actix.
//! rmcp's `Host` allow-list (a DNS-rebinding defence for servers that trust whoever reaches
//! them) is off: nothing here is served without a bearer token, which a rebinding page cannot
//! attach.

use actix_web::HttpMessage as _;
use actix_web::middleware::from_fn;
use actix_web::web;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, schemars, tool, tool_handler, tool_router,
};
use rmcp_actix_web::transport::{StreamableHttpService, on_request_extensions};
use scribevault_proto::library::v1 as pb;
use serde_json::{Value, json};
use std::sync::Arc;

use crate::auth::{Caller, require_authentication};
use crate::clients::{ServiceClients, UserClients};

/// Hits `search_vault` answers unless asked for fewer.
const DEFAULT_HITS: u32 = 10;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// What to look for: words, a phrase in quotes, or a question in any language.
    pub query: String,
    /// `hybrid` (default: words and meaning), `keyword` or `semantic` (meaning alone).
    #[serde(default)]
    pub mode: Option<String>,
    /// How many items, 1 to 50 (default 10).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Only items carrying every one of these tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct TranscriptArgs {
    /// The item's id, as `search_vault` answers it.
    pub id: String,
    /// Only the text from this second on.
    #[serde(default)]
    pub start: Option<f64>,
    /// Only the text before this second.
    #[serde(default)]
    pub end: Option<f64>,
}

/// The tools, for one MCP session; each call acts as the caller of its HTTP request.
#[derive(Clone)]
pub struct VaultTools {
    clients: ServiceClients,
    #[expect(
        dead_code,
        reason = "made by new(); the tool_handler macro reads the router through Self::tool_router()"
    )]
    tool_router: ToolRouter<Self>,
}

/// A tool's failure: the service's message, for the assistant to read.
fn failed(status: &tonic::Status) -> String {
    status.message().to_owned()
}

/// A tool's outcome as MCP reports it: a result, or a tool error (`isError`) whose text says
/// why (an unknown id, a bad argument), which the assistant reads and can act on. Protocol
/// errors are kept for a call that cannot be made at all (no signed-in caller).
fn outcome(result: Result<Value, String>) -> CallToolResult {
    match result {
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

/// `[mm:ss]` of a second.
fn timestamp(seconds: f64) -> String {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = seconds.max(0.0) as u64;
    format!("[{:02}:{:02}]", whole / 60, whole % 60)
}

#[tool_router]
impl VaultTools {
    fn new(clients: ServiceClients) -> Self {
        Self {
            clients,
            tool_router: Self::tool_router(),
        }
    }

    /// The clients of the member whose request this is.
    fn member(&self, context: &RequestContext<RoleServer>) -> Result<UserClients, McpError> {
        on_request_extensions(&context.extensions)
            .and_then(|extensions| extensions.get::<Caller>())
            .map(|caller| self.clients.for_user(&caller.user))
            .ok_or_else(|| McpError::invalid_request("not signed in", None))
    }

    #[tool(
        description = "Search the Vault by words and by meaning (any language). Answers items with their id, title, when they were made, how they were found, and the seconds in the recording that match."
    )]
    async fn search_vault(
        &self,
        Parameters(args): Parameters<SearchArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let clients = self.member(&context)?;
        Ok(outcome(search(&clients, args).await))
    }

    #[tool(
        description = "The text of one Vault item, each line with the time it is said at ([mm:ss]) when the item is a recording; optionally only from `start` to `end` seconds."
    )]
    async fn get_transcript(
        &self,
        Parameters(args): Parameters<TranscriptArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let clients = self.member(&context)?;
        Ok(outcome(transcript(&clients, args).await))
    }

    #[tool(description = "The tags of the Vault, with how many items carry each.")]
    async fn list_tags(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let clients = self.member(&context)?;
        Ok(outcome(tags(&clients).await))
    }
}

async fn search(clients: &UserClients, args: SearchArgs) -> Result<Value, String> {
    let search_mode = match args.mode.as_deref().unwrap_or("hybrid") {
        "hybrid" => pb::SearchMode::Hybrid,
        "keyword" => pb::SearchMode::Keyword,
        "semantic" => pb::SearchMode::Semantic,
        other => {
            return Err(format!(
                "mode must be hybrid, keyword or semantic, not {other:?}"
            ));
        }
    };
    let request = pb::ListTranscriptsRequest {
        limit: Some(args.limit.unwrap_or(DEFAULT_HITS).clamp(1, 50)),
        search: Some(args.query),
        search_mode: search_mode.into(),
        filter: Some(pb::ItemFilter {
            tags: args.tags,
            ..pb::ItemFilter::default()
        }),
        ..pb::ListTranscriptsRequest::default()
    };
    let listed = clients
        .library()
        .list_transcripts(request)
        .await
        .map_err(|status| failed(&status))?
        .into_inner();
    let hits: Vec<Value> = listed.transcripts.iter().map(hit_json).collect();
    Ok(json!({ "items": hits }))
}

async fn transcript(clients: &UserClients, args: TranscriptArgs) -> Result<Value, String> {
    let mut library = clients.library();
    let item = library
        .get_transcript(pb::GetTranscriptRequest {
            id: args.id.clone(),
        })
        .await
        .map_err(|status| failed(&status))?
        .into_inner();
    let segments = library
        .get_transcript_segments(pb::GetTranscriptSegmentsRequest {
            id: args.id.clone(),
        })
        .await
        .map_err(|status| failed(&status))?
        .into_inner()
        .segments;
    let (from, to) = (args.start.unwrap_or(0.0), args.end.unwrap_or(f64::MAX));
    #[allow(clippy::cast_precision_loss)]
    let text = if segments.is_empty() {
        library
            .get_transcript_content(pb::GetTranscriptContentRequest { id: args.id })
            .await
            .map_err(|status| failed(&status))?
            .into_inner()
            .content
    } else {
        segments
            .iter()
            .filter(|s| s.end_ms as f64 / 1000.0 > from && (s.start_ms as f64 / 1000.0) < to)
            .map(|s| {
                format!(
                    "{} {}",
                    timestamp(s.start_ms as f64 / 1000.0),
                    s.text.trim()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    Ok(json!({ "id": item.id, "title": item.title, "text": text }))
}

async fn tags(clients: &UserClients) -> Result<Value, String> {
    let tags = clients
        .library()
        .list_tags(pb::ListTagsRequest {})
        .await
        .map_err(|status| failed(&status))?
        .into_inner()
        .tags;
    let tags: Vec<Value> = tags
        .iter()
        .map(|tag| json!({ "name": tag.name, "count": tag.count }))
        .collect();
    Ok(json!({ "tags": tags }))
}

/// One search hit as the tools answer it.
fn hit_json(item: &pb::Transcript) -> Value {
    let found_by = match item.found_by() {
        pb::FoundBy::Meaning => "meaning",
        pb::FoundBy::Both => "both",
        pb::FoundBy::Keyword | pb::FoundBy::Unspecified => "keyword",
    };
    json!({
        "id": item.id,
        "title": item.title,
        "createdAt": item.created_at,
        "foundBy": found_by,
        "matches": item.matches.iter().map(|m| json!({
            "start": m.start, "end": m.end, "text": m.text,
        })).collect::<Vec<_>>(),
    })
}

#[tool_handler]
impl ServerHandler for VaultTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
            "Scribevault: the member's archive of transcribed recordings and documents. \
             search_vault finds items (with the seconds they say it at); get_transcript reads one.",
        )
    }
}

/// The MCP service: one for the whole server, so its sessions are found whichever worker
/// thread a request of the session lands on.
pub type McpService = StreamableHttpService<VaultTools, LocalSessionManager>;

/// The service over `clients`.
pub fn service(clients: ServiceClients) -> McpService {
    StreamableHttpService::builder()
        .service_factory(Arc::new(move || Ok(VaultTools::new(clients.clone()))))
        .session_manager(Arc::new(LocalSessionManager::default()))
        .stateful_mode(true)
        .allowed_hosts(Vec::<String>::new())
        .on_request_fn(|request, extensions| {
            if let Some(caller) = request.extensions().get::<Caller>() {
                extensions.insert(caller.clone());
            }
        })
        .build()
}

/// Mounts `/mcp`: the caller is authenticated first, then handed to the tools.
pub fn configure(config: &mut web::ServiceConfig, service: McpService) {
    config.service(
        web::scope("/mcp")
            .wrap(from_fn(require_authentication))
            .service(service.scope()),
    );
}
