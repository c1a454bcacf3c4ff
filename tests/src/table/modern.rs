//! The 155 definitions of the 2026-07-28 schema.

use mcp_core::cancellation::{CancelledNotification, CancelledNotificationParams};
use mcp_core::capabilities::{ClientCapabilities, ServerCapabilities};
use mcp_core::completion::{
    CompleteRequest, CompleteRequestParams, CompleteResult, CompleteResultResponse,
    ResourceTemplateReference,
};
use mcp_core::content::{
    Annotations, AudioContent, BaseMetadata, ContentBlock, EmbeddedResource, Icon, Icons,
    ImageContent, Implementation, Role, TextContent, ToolResultContent, ToolUseContent,
};
use mcp_core::discover::{DiscoverRequest, DiscoverResult, DiscoverResultResponse};
use mcp_core::elicitation::{
    BooleanSchema, ElicitRequest, ElicitRequestFormParams, ElicitRequestParams,
    ElicitRequestUrlParams, ElicitResult, EnumSchema, LegacyTitledEnumSchema,
    MultiSelectEnumSchema, NumberSchema, PrimitiveSchemaDefinition, SingleSelectEnumSchema,
    StringSchema, TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};
use mcp_core::error::ErrorObject;
use mcp_core::json::{JsonArray, JsonObject, JsonValue};
use mcp_core::jsonrpc::{
    ErrorResponse, Message, Notification, ProgressToken, Request, RequestId, Response,
    ResultResponse,
};
use mcp_core::logging::{
    LoggingLevel, LoggingMessageNotification, LoggingMessageNotificationParams,
};
use mcp_core::messages::{
    ClientNotification, ClientRequest, ClientResult, ServerNotification, ServerResult,
};
use mcp_core::meta::{Meta, NotificationMeta, RequestMeta, ResultMeta};
use mcp_core::mrtr::{
    InputRequest, InputRequests, InputRequiredResult, InputResponse, InputResponseRequestParams,
    InputResponses,
};
use mcp_core::pagination::{Cursor, NotificationParams, PaginatedRequestParams, RequestParams};
use mcp_core::progress::{ProgressNotification, ProgressNotificationParams};
use mcp_core::prompts::{
    GetPromptRequest, GetPromptRequestParams, GetPromptResult, GetPromptResultResponse,
    ListPromptsRequest, ListPromptsResult, ListPromptsResultResponse, Prompt, PromptArgument,
    PromptListChangedNotification, PromptMessage, PromptReference,
};
use mcp_core::resources::{
    BlobResourceContents, ListResourceTemplatesRequest, ListResourceTemplatesResult,
    ListResourceTemplatesResultResponse, ListResourcesRequest, ListResourcesResult,
    ListResourcesResultResponse, ReadResourceRequest, ReadResourceRequestParams,
    ReadResourceResult, ReadResourceResultResponse, Resource, ResourceContentsBase, ResourceLink,
    ResourceListChangedNotification, ResourceRequestParams, ResourceTemplate,
    ResourceUpdatedNotification, ResourceUpdatedNotificationParams, TextResourceContents,
};
use mcp_core::result::{CacheableResult, EmptyResult, PaginatedResult, ResultType};
use mcp_core::roots::{ListRootsRequest, ListRootsResult, Root};
use mcp_core::sampling::{
    CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ModelHint,
    ModelPreferences, SamplingMessage, SamplingMessageContentBlock, ToolChoice,
};
use mcp_core::subscriptions::{
    SubscriptionFilter, SubscriptionsAcknowledgedNotification,
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequest,
    SubscriptionsListenRequestParams, SubscriptionsListenResult, SubscriptionsListenResultMeta,
    SubscriptionsListenResultResponse,
};
use mcp_core::tools::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CallToolResultResponse,
    ListToolsRequest, ListToolsResult, ListToolsResultResponse, Tool, ToolAnnotations,
    ToolListChangedNotification,
};

use super::definitions;
use crate::generators::{
    error_response, error_with_code, json_array, json_object, json_value, jsonrpc_message,
    jsonrpc_response, missing_required_client_capability_error, unsupported_protocol_version_error,
};
use crate::schema::Schema;

definitions!(
    /// Every definition of the 2026-07-28 schema, validated against its `schema.json`.
    MODERN for Schema::Modern => {
        "Annotations" => Annotations;
        "AudioContent" => AudioContent;
        "BaseMetadata" => BaseMetadata;
        "BlobResourceContents" => BlobResourceContents;
        "BooleanSchema" => BooleanSchema;
        "CacheableResult" => CacheableResult;
        "CallToolRequest" => CallToolRequest;
        "CallToolRequestParams" => CallToolRequestParams;
        "CallToolResult" => CallToolResult;
        "CallToolResultResponse" => CallToolResultResponse;
        "CancelledNotification" => CancelledNotification;
        "CancelledNotificationParams" => CancelledNotificationParams;
        "ClientCapabilities" => ClientCapabilities;
        "ClientNotification" => ClientNotification;
        "ClientRequest" => ClientRequest;
        "ClientResult" => ClientResult;
        "CompleteRequest" => CompleteRequest;
        "CompleteRequestParams" => CompleteRequestParams;
        "CompleteResult" => CompleteResult;
        "CompleteResultResponse" => CompleteResultResponse;
        "ContentBlock" => ContentBlock;
        "CreateMessageRequest" => CreateMessageRequest;
        "CreateMessageRequestParams" => CreateMessageRequestParams;
        "CreateMessageResult" => CreateMessageResult;
        "Cursor" => Cursor;
        "DiscoverRequest" => DiscoverRequest;
        "DiscoverResult" => DiscoverResult;
        "DiscoverResultResponse" => DiscoverResultResponse;
        "ElicitRequest" => ElicitRequest;
        "ElicitRequestFormParams" => ElicitRequestFormParams;
        "ElicitRequestParams" => ElicitRequestParams;
        "ElicitRequestURLParams" => ElicitRequestUrlParams;
        "ElicitResult" => ElicitResult;
        "EmbeddedResource" => EmbeddedResource;
        "EmptyResult" => EmptyResult;
        "EnumSchema" => EnumSchema;
        "Error" => ErrorObject;
        "GetPromptRequest" => GetPromptRequest;
        "GetPromptRequestParams" => GetPromptRequestParams;
        "GetPromptResult" => GetPromptResult;
        "GetPromptResultResponse" => GetPromptResultResponse;
        "HeaderMismatchError" => ErrorResponse, gen = error_response(-32020);
        "Icon" => Icon;
        "Icons" => Icons;
        "ImageContent" => ImageContent;
        "Implementation" => Implementation;
        "InputRequest" => InputRequest;
        "InputRequests" => InputRequests;
        "InputRequiredResult" => InputRequiredResult;
        "InputResponse" => InputResponse;
        "InputResponseRequestParams" => InputResponseRequestParams;
        "InputResponses" => InputResponses;
        "InternalError" => ErrorObject, gen = error_with_code(-32603);
        "InvalidParamsError" => ErrorObject, gen = error_with_code(-32602);
        "InvalidRequestError" => ErrorObject, gen = error_with_code(-32600);
        "JSONArray" => JsonArray, gen = json_array;
        "JSONObject" => JsonObject, gen = json_object;
        "JSONRPCErrorResponse" => ErrorResponse;
        "JSONRPCMessage" => Message, gen = jsonrpc_message;
        "JSONRPCNotification" => Notification;
        "JSONRPCRequest" => Request;
        "JSONRPCResponse" => Response, gen = jsonrpc_response;
        "JSONRPCResultResponse" => ResultResponse<EmptyResult>;
        "JSONValue" => JsonValue, gen = json_value;
        "LegacyTitledEnumSchema" => LegacyTitledEnumSchema;
        "ListPromptsRequest" => ListPromptsRequest;
        "ListPromptsResult" => ListPromptsResult;
        "ListPromptsResultResponse" => ListPromptsResultResponse;
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest;
        "ListResourceTemplatesResult" => ListResourceTemplatesResult;
        "ListResourceTemplatesResultResponse" => ListResourceTemplatesResultResponse;
        "ListResourcesRequest" => ListResourcesRequest;
        "ListResourcesResult" => ListResourcesResult;
        "ListResourcesResultResponse" => ListResourcesResultResponse;
        "ListRootsRequest" => ListRootsRequest;
        "ListRootsResult" => ListRootsResult;
        "ListToolsRequest" => ListToolsRequest;
        "ListToolsResult" => ListToolsResult;
        "ListToolsResultResponse" => ListToolsResultResponse;
        "LoggingLevel" => LoggingLevel;
        "LoggingMessageNotification" => LoggingMessageNotification;
        "LoggingMessageNotificationParams" => LoggingMessageNotificationParams;
        "MetaObject" => Meta;
        "MethodNotFoundError" => ErrorObject, gen = error_with_code(-32601);
        "MissingRequiredClientCapabilityError" => ErrorResponse, gen = missing_required_client_capability_error;
        "ModelHint" => ModelHint;
        "ModelPreferences" => ModelPreferences;
        "MultiSelectEnumSchema" => MultiSelectEnumSchema;
        "Notification" => Notification;
        "NotificationMetaObject" => NotificationMeta;
        "NotificationParams" => NotificationParams;
        "NumberSchema" => NumberSchema;
        "PaginatedRequest" => ListToolsRequest;
        "PaginatedRequestParams" => PaginatedRequestParams;
        "PaginatedResult" => PaginatedResult;
        "ParseError" => ErrorObject, gen = error_with_code(-32700);
        "PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition;
        "ProgressNotification" => ProgressNotification;
        "ProgressNotificationParams" => ProgressNotificationParams;
        "ProgressToken" => ProgressToken;
        "Prompt" => Prompt;
        "PromptArgument" => PromptArgument;
        "PromptListChangedNotification" => PromptListChangedNotification;
        "PromptMessage" => PromptMessage;
        "PromptReference" => PromptReference;
        "ReadResourceRequest" => ReadResourceRequest;
        "ReadResourceRequestParams" => ReadResourceRequestParams;
        "ReadResourceResult" => ReadResourceResult;
        "ReadResourceResultResponse" => ReadResourceResultResponse;
        "Request" => Request;
        "RequestId" => RequestId;
        "RequestMetaObject" => RequestMeta;
        "RequestParams" => RequestParams;
        "Resource" => Resource;
        "ResourceContents" => ResourceContentsBase;
        "ResourceLink" => ResourceLink;
        "ResourceListChangedNotification" => ResourceListChangedNotification;
        "ResourceRequestParams" => ResourceRequestParams;
        "ResourceTemplate" => ResourceTemplate;
        "ResourceTemplateReference" => ResourceTemplateReference;
        "ResourceUpdatedNotification" => ResourceUpdatedNotification;
        "ResourceUpdatedNotificationParams" => ResourceUpdatedNotificationParams;
        "Result" => EmptyResult;
        "ResultMetaObject" => ResultMeta;
        "ResultType" => ResultType;
        "Role" => Role;
        "Root" => Root;
        "SamplingMessage" => SamplingMessage;
        "SamplingMessageContentBlock" => SamplingMessageContentBlock;
        "ServerCapabilities" => ServerCapabilities;
        "ServerNotification" => ServerNotification;
        "ServerResult" => ServerResult;
        "SingleSelectEnumSchema" => SingleSelectEnumSchema;
        "StringSchema" => StringSchema;
        "SubscriptionFilter" => SubscriptionFilter;
        "SubscriptionsAcknowledgedNotification" => SubscriptionsAcknowledgedNotification;
        "SubscriptionsAcknowledgedNotificationParams" => SubscriptionsAcknowledgedNotificationParams;
        "SubscriptionsListenRequest" => SubscriptionsListenRequest;
        "SubscriptionsListenRequestParams" => SubscriptionsListenRequestParams;
        "SubscriptionsListenResult" => SubscriptionsListenResult;
        "SubscriptionsListenResultMetaObject" => SubscriptionsListenResultMeta;
        "SubscriptionsListenResultResponse" => SubscriptionsListenResultResponse;
        "TextContent" => TextContent;
        "TextResourceContents" => TextResourceContents;
        "TitledMultiSelectEnumSchema" => TitledMultiSelectEnumSchema;
        "TitledSingleSelectEnumSchema" => TitledSingleSelectEnumSchema;
        "Tool" => Tool;
        "ToolAnnotations" => ToolAnnotations;
        "ToolChoice" => ToolChoice;
        "ToolListChangedNotification" => ToolListChangedNotification;
        "ToolResultContent" => ToolResultContent;
        "ToolUseContent" => ToolUseContent;
        "UnsupportedProtocolVersionError" => ErrorResponse, gen = unsupported_protocol_version_error;
        "UntitledMultiSelectEnumSchema" => UntitledMultiSelectEnumSchema;
        "UntitledSingleSelectEnumSchema" => UntitledSingleSelectEnumSchema;
    }
);
