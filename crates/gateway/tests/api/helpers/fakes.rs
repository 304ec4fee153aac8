//! The fake library, conversion and storage services: each RPC records what reached it (with
//! the caller the identity check verified) and answers what a test told it to.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use scribevault_core::identity;
use scribevault_proto::conversion::v1 as conversion_pb;
use scribevault_proto::conversion::v1::conversion_service_server::ConversionService;
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::library::v1::library_service_server::LibraryService;
use scribevault_proto::storage::v1 as storage_pb;
use scribevault_proto::storage::v1::storage_service_server::StorageService;
use tonic::{Request, Response, Status};

/// One call that reached a fake: the message, and the user the identity check verified.
#[derive(Debug, Clone)]
pub struct Received<T> {
    /// The verified caller (`None` when the call named no user).
    pub caller: Option<String>,
    pub message: T,
}

/// One RPC of a fake: what it received, and what it answers. Unless told otherwise it answers
/// the response message's default.
pub struct Rpc<Req, Resp> {
    received: Mutex<Vec<Received<Req>>>,
    /// Answered once each, in order, before `answer`.
    queued: Mutex<VecDeque<Result<Resp, Status>>>,
    answer: Mutex<Option<Result<Resp, Status>>>,
}

impl<Req, Resp> Default for Rpc<Req, Resp> {
    fn default() -> Self {
        Self {
            received: Mutex::new(Vec::new()),
            queued: Mutex::new(VecDeque::new()),
            answer: Mutex::new(None),
        }
    }
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<Req: Clone, Resp: Clone + Default> Rpc<Req, Resp> {
    /// Every later call answers `answer`.
    pub fn answers(&self, answer: Result<Resp, Status>) {
        *lock(&self.answer) = Some(answer);
    }

    /// The next call (after those queued before) answers `answer`.
    pub fn then_answers(&self, answer: Result<Resp, Status>) {
        lock(&self.queued).push_back(answer);
    }

    /// What reached this RPC, in order.
    pub fn received(&self) -> Vec<Received<Req>> {
        lock(&self.received).clone()
    }

    /// The messages alone.
    pub fn messages(&self) -> Vec<Req> {
        self.received()
            .into_iter()
            .map(|received| received.message)
            .collect()
    }

    fn answer<T>(&self, request: &Request<T>, message: Req) -> Result<Response<Resp>, Status> {
        let caller = identity::caller(request)
            .ok()
            .map(|user| user.as_str().to_owned());
        lock(&self.received).push(Received { caller, message });
        let queued = lock(&self.queued).pop_front();
        queued
            .or_else(|| lock(&self.answer).clone())
            .unwrap_or_else(|| Ok(Resp::default()))
            .map(Response::new)
    }

    async fn unary(&self, request: Request<Req>) -> Result<Response<Resp>, Status> {
        let message = request.get_ref().clone();
        self.answer(&request, message)
    }
}

/// What a fake answers for an RPC these tests do not use.
fn unfaked() -> Status {
    Status::unimplemented("not faked by the gateway's tests")
}

/// The stream type of a server-streaming RPC no test uses.
type UnfakedStream<T> =
    std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<T, Status>> + Send + 'static>>;

/// The library service as the gateway's tests need it.
#[derive(Default)]
pub struct FakeLibrary {
    pub list_transcripts:
        Rpc<library_pb::ListTranscriptsRequest, library_pb::ListTranscriptsResponse>,
    pub get_transcript: Rpc<library_pb::GetTranscriptRequest, library_pb::Transcript>,
    pub get_library_stats:
        Rpc<library_pb::GetLibraryStatsRequest, library_pb::GetLibraryStatsResponse>,
    pub update_transcript_metadata:
        Rpc<library_pb::UpdateTranscriptMetadataRequest, library_pb::Transcript>,
}

#[tonic::async_trait]
impl LibraryService for FakeLibrary {
    async fn list_transcripts(
        &self,
        request: Request<library_pb::ListTranscriptsRequest>,
    ) -> Result<Response<library_pb::ListTranscriptsResponse>, Status> {
        self.list_transcripts.unary(request).await
    }

    async fn get_transcript(
        &self,
        request: Request<library_pb::GetTranscriptRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        self.get_transcript.unary(request).await
    }

    async fn get_library_stats(
        &self,
        request: Request<library_pb::GetLibraryStatsRequest>,
    ) -> Result<Response<library_pb::GetLibraryStatsResponse>, Status> {
        self.get_library_stats.unary(request).await
    }

    async fn update_transcript_metadata(
        &self,
        request: Request<library_pb::UpdateTranscriptMetadataRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        self.update_transcript_metadata.unary(request).await
    }
    type DownloadExportStream = UnfakedStream<library_pb::ExportChunk>;

    async fn get_transcript_content(
        &self,
        _request: Request<library_pb::GetTranscriptContentRequest>,
    ) -> Result<Response<library_pb::GetTranscriptContentResponse>, Status> {
        Err(unfaked())
    }

    async fn update_transcript_rating(
        &self,
        _request: Request<library_pb::UpdateTranscriptRatingRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }

    async fn update_transcript_content(
        &self,
        _request: Request<library_pb::UpdateTranscriptContentRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }

    async fn delete_transcript(
        &self,
        _request: Request<library_pb::DeleteTranscriptRequest>,
    ) -> Result<Response<library_pb::DeleteTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn export_transcript(
        &self,
        _request: Request<library_pb::ExportTranscriptRequest>,
    ) -> Result<Response<library_pb::ExportTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn export_transcripts_bulk(
        &self,
        _request: Request<library_pb::ExportTranscriptsBulkRequest>,
    ) -> Result<Response<library_pb::ExportTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn process_transcripts_batch(
        &self,
        _request: Request<library_pb::ProcessTranscriptsBatchRequest>,
    ) -> Result<Response<library_pb::ProcessTranscriptsBatchResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_suggestions(
        &self,
        _request: Request<library_pb::GetTranscriptSuggestionsRequest>,
    ) -> Result<Response<library_pb::GetTranscriptSuggestionsResponse>, Status> {
        Err(unfaked())
    }

    async fn get_related_transcripts(
        &self,
        _request: Request<library_pb::GetRelatedTranscriptsRequest>,
    ) -> Result<Response<library_pb::GetRelatedTranscriptsResponse>, Status> {
        Err(unfaked())
    }

    async fn init_tags(
        &self,
        _request: Request<library_pb::InitTagsRequest>,
    ) -> Result<Response<library_pb::InitTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn init_gwth_tags(
        &self,
        _request: Request<library_pb::InitTagsRequest>,
    ) -> Result<Response<library_pb::InitTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn list_tags(
        &self,
        _request: Request<library_pb::ListTagsRequest>,
    ) -> Result<Response<library_pb::ListTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn list_syllabus_sections(
        &self,
        _request: Request<library_pb::ListSyllabusSectionsRequest>,
    ) -> Result<Response<library_pb::ListSyllabusSectionsResponse>, Status> {
        Err(unfaked())
    }

    async fn create_syllabus_section(
        &self,
        _request: Request<library_pb::CreateSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::SyllabusSection>, Status> {
        Err(unfaked())
    }

    async fn update_syllabus_section(
        &self,
        _request: Request<library_pb::UpdateSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::SyllabusSection>, Status> {
        Err(unfaked())
    }

    async fn reorder_syllabus_sections(
        &self,
        _request: Request<library_pb::ReorderSyllabusSectionsRequest>,
    ) -> Result<Response<library_pb::ListSyllabusSectionsResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_syllabus_section(
        &self,
        _request: Request<library_pb::DeleteSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::DeleteSyllabusSectionResponse>, Status> {
        Err(unfaked())
    }

    async fn download_export(
        &self,
        _request: Request<library_pb::DownloadExportRequest>,
    ) -> Result<Response<Self::DownloadExportStream>, Status> {
        Err(unfaked())
    }

    async fn save_to_vault(
        &self,
        _request: Request<library_pb::SaveToVaultRequest>,
    ) -> Result<Response<library_pb::SaveToVaultResponse>, Status> {
        Err(unfaked())
    }

    async fn ingest_transcript(
        &self,
        _request: Request<library_pb::IngestTranscriptRequest>,
    ) -> Result<Response<library_pb::IngestTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<library_pb::DeleteUserDataRequest>,
    ) -> Result<Response<library_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_audio(
        &self,
        _request: Request<library_pb::GetTranscriptAudioRequest>,
    ) -> Result<Response<library_pb::GetTranscriptAudioResponse>, Status> {
        Err(unfaked())
    }

    async fn create_audio_link(
        &self,
        _request: Request<library_pb::CreateAudioLinkRequest>,
    ) -> Result<Response<library_pb::CreateAudioLinkResponse>, Status> {
        Err(unfaked())
    }

    async fn open_audio_link(
        &self,
        _request: Request<library_pb::OpenAudioLinkRequest>,
    ) -> Result<Response<library_pb::OpenAudioLinkResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_segments(
        &self,
        _request: Request<library_pb::GetTranscriptSegmentsRequest>,
    ) -> Result<Response<library_pb::GetTranscriptSegmentsResponse>, Status> {
        Err(unfaked())
    }

    async fn set_whisper_job(
        &self,
        _request: Request<library_pb::SetWhisperJobRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }

    async fn clear_transcript_review(
        &self,
        _request: Request<library_pb::ClearTranscriptReviewRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }
}

/// The conversion service as the gateway's tests need it.
#[derive(Default)]
pub struct FakeConversion {
    pub create_template: Rpc<conversion_pb::TemplateInput, conversion_pb::Template>,
    pub delete_template:
        Rpc<conversion_pb::DeleteTemplateRequest, conversion_pb::DeleteTemplateResponse>,
    /// Each call's whole stream: the header, then the chunks.
    pub convert_pdf_to_markdown:
        Rpc<Vec<conversion_pb::ConvertPdfToMarkdownRequest>, conversion_pb::PdfConversion>,
}

#[tonic::async_trait]
impl ConversionService for FakeConversion {
    async fn create_template(
        &self,
        request: Request<conversion_pb::TemplateInput>,
    ) -> Result<Response<conversion_pb::Template>, Status> {
        self.create_template.unary(request).await
    }

    async fn delete_template(
        &self,
        request: Request<conversion_pb::DeleteTemplateRequest>,
    ) -> Result<Response<conversion_pb::DeleteTemplateResponse>, Status> {
        self.delete_template.unary(request).await
    }

    async fn convert_pdf_to_markdown(
        &self,
        mut request: Request<tonic::Streaming<conversion_pb::ConvertPdfToMarkdownRequest>>,
    ) -> Result<Response<conversion_pb::PdfConversion>, Status> {
        let mut messages = Vec::new();
        while let Some(message) = request.get_mut().message().await? {
            messages.push(message);
        }
        self.convert_pdf_to_markdown.answer(&request, messages)
    }
    async fn convert_transcripts_to_markdown(
        &self,
        _request: Request<conversion_pb::ConvertTranscriptsToMarkdownRequest>,
    ) -> Result<Response<conversion_pb::ConvertTranscriptsToMarkdownResponse>, Status> {
        Err(unfaked())
    }

    async fn reprocess_transcript(
        &self,
        _request: Request<conversion_pb::ReprocessTranscriptRequest>,
    ) -> Result<Response<conversion_pb::PdfConversion>, Status> {
        Err(unfaked())
    }

    async fn list_templates(
        &self,
        _request: Request<conversion_pb::ListTemplatesRequest>,
    ) -> Result<Response<conversion_pb::ListTemplatesResponse>, Status> {
        Err(unfaked())
    }

    async fn update_template(
        &self,
        _request: Request<conversion_pb::UpdateTemplateRequest>,
    ) -> Result<Response<conversion_pb::Template>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<conversion_pb::DeleteUserDataRequest>,
    ) -> Result<Response<conversion_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }
}

/// Storage as the PDF routes need it: the quota check before an upload.
#[derive(Default)]
pub struct FakeStorage {
    pub check_storage_room:
        Rpc<storage_pb::CheckStorageRoomRequest, storage_pb::CheckStorageRoomResponse>,
}

#[tonic::async_trait]
impl StorageService for FakeStorage {
    async fn check_storage_room(
        &self,
        request: Request<storage_pb::CheckStorageRoomRequest>,
    ) -> Result<Response<storage_pb::CheckStorageRoomResponse>, Status> {
        self.check_storage_room.unary(request).await
    }
    type DownloadBlobStream = UnfakedStream<storage_pb::DownloadBlobResponse>;

    async fn upload_mp3(
        &self,
        _request: Request<tonic::Streaming<storage_pb::UploadMp3Request>>,
    ) -> Result<Response<storage_pb::UploadMp3Response>, Status> {
        Err(unfaked())
    }

    async fn get_mp3_status(
        &self,
        _request: Request<storage_pb::GetMp3StatusRequest>,
    ) -> Result<Response<storage_pb::GetMp3StatusResponse>, Status> {
        Err(unfaked())
    }

    async fn list_manual_uploads(
        &self,
        _request: Request<storage_pb::ListManualUploadsRequest>,
    ) -> Result<Response<storage_pb::ListManualUploadsResponse>, Status> {
        Err(unfaked())
    }

    async fn download_blob(
        &self,
        _request: Request<storage_pb::DownloadBlobRequest>,
    ) -> Result<Response<Self::DownloadBlobStream>, Status> {
        Err(unfaked())
    }

    async fn stat_blob(
        &self,
        _request: Request<storage_pb::StatBlobRequest>,
    ) -> Result<Response<storage_pb::StatBlobResponse>, Status> {
        Err(unfaked())
    }

    async fn set_storage_policy(
        &self,
        _request: Request<storage_pb::SetStoragePolicyRequest>,
    ) -> Result<Response<storage_pb::SetStoragePolicyResponse>, Status> {
        Err(unfaked())
    }

    async fn get_storage_usage(
        &self,
        _request: Request<storage_pb::GetStorageUsageRequest>,
    ) -> Result<Response<storage_pb::GetStorageUsageResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<storage_pb::DeleteUserDataRequest>,
    ) -> Result<Response<storage_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }
}
