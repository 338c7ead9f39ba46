package azerr

// Code is an Azure error code with the HTTP status and the message the service answers
// it with. A message may hold {field} and {value}, filled from the *model.FieldError in
// the error (see Of).
type Code struct {
	Name    string
	Status  int
	Message string
}

// withMessage returns c answered with another message, for an error that Azure reports
// under c's name with words of its own.
func (c Code) withMessage(msg string) Code {
	c.Message = msg
	return c
}

// The codes of tables and entities.
var (
	TableAlreadyExists           = Code{"TableAlreadyExists", 409, "The table specified already exists."}
	TableNotFound                = Code{"TableNotFound", 404, "The table specified does not exist."}
	EntityAlreadyExists          = Code{"EntityAlreadyExists", 409, "The specified entity already exists."}
	ResourceNotFound             = Code{"ResourceNotFound", 404, "The specified resource does not exist."}
	UpdateConditionNotSatisfied  = Code{"UpdateConditionNotSatisfied", 412, "The update condition specified in the request was not satisfied."}
	InvalidResourceName          = Code{"InvalidResourceName", 400, "The specifed resource name contains invalid characters."}
	OutOfRangeInput              = Code{"OutOfRangeInput", 400, "The '{field}' parameter of value '{value}' is out of range."}
	PropertiesNeedValue          = Code{"PropertiesNeedValue", 400, "The values are not specified for all properties in the entity."}
	PropertyNameInvalid          = Code{"PropertyNameInvalid", 400, "The property name is invalid."}
	PropertyNameTooLong          = Code{"PropertyNameTooLong", 400, "The property name exceeds the maximum allowed length."}
	DuplicatePropertiesSpecified = Code{"DuplicatePropertiesSpecified", 400, "A property is specified more than one time."}
	TooManyProperties            = Code{"TooManyProperties", 400, "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."}
	EntityTooLarge               = Code{"EntityTooLarge", 400, "The entity is larger than the maximum size permitted."}
	PropertyValueTooLarge        = Code{"PropertyValueTooLarge", 400, "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."}
)

// The codes of entity group transactions.
var (
	CommandsInBatchActOnDifferentPartitions = Code{"CommandsInBatchActOnDifferentPartitions", 400, "All commands in a batch must operate on same entity group."}
	InvalidDuplicateRow                     = Code{"InvalidDuplicateRow", 400, "A command with RowKey '{value}' is already present in the batch. An entity can appear only once in a batch."}
)

// The codes of requests.
var (
	InvalidInput               = Code{"InvalidInput", 400, "One of the request inputs is not valid."}
	InvalidQueryParameterValue = Code{"InvalidQueryParameterValue", 400, "Value for one of the query parameters specified in the request URI is invalid."}
	InvalidUri                 = Code{"InvalidUri", 400, "The requested URI does not represent any resource on the server."}
	InvalidHeaderValue         = Code{"InvalidHeaderValue", 400, "The value for one of the HTTP headers is not in the correct format."}
	UnsupportedHeader          = Code{"UnsupportedHeader", 400, "One of the HTTP headers specified in the request is not supported."}
	InvalidXmlDocument         = Code{"InvalidXmlDocument", 400, "XML specified is not syntactically valid."}
	MissingRequiredHeader      = Code{"MissingRequiredHeader", 400, "An HTTP header that's mandatory for this request is not specified."}
	XMethodNotUsingPost        = Code{"XMethodNotUsingPost", 400, "The request uses X-HTTP-Method with an HTTP verb different than POST."}
	XMethodIncorrectCount      = Code{"XMethodIncorrectCount", 400, "More than one X-HTTP-Method is specified."}
	XMethodIncorrectValue      = Code{"XMethodIncorrectValue", 400, "The specified X-HTTP-Method is invalid."}
	CorsPreflightFailure       = Code{"CorsPreflightFailure", 403, "CORS not enabled or no matching rule found for this request."}
	MethodNotAllowed           = Code{"MethodNotAllowed", 405, "The requested method is not allowed on the specified resource."}
	RequestBodyTooLarge        = Code{"RequestBodyTooLarge", 413, "The request body is too large and exceeds the maximum permissible limit."}
	AtomFormatNotSupported     = Code{"AtomFormatNotSupported", 415, "Atom format is not supported."}
	JsonFormatNotSupported     = Code{"JsonFormatNotSupported", 415, "JSON format is not supported."}
)

// The codes of authentication and authorization, all answered with 403 but
// InvalidAuthenticationInfo.
var (
	AuthenticationFailed              = Code{"AuthenticationFailed", 403, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."}
	AuthorizationFailure              = Code{"AuthorizationFailure", 403, "This request is not authorized to perform this operation."}
	AuthorizationPermissionMismatch   = Code{"AuthorizationPermissionMismatch", 403, "This request is not authorized to perform this operation using this permission."}
	AuthorizationResourceTypeMismatch = Code{"AuthorizationResourceTypeMismatch", 403, "This request is not authorized to perform this operation using this resource type."}
	AuthorizationServiceMismatch      = Code{"AuthorizationServiceMismatch", 403, "This request is not authorized to perform this operation using this service."}
	AuthorizationProtocolMismatch     = Code{"AuthorizationProtocolMismatch", 403, "This request is not authorized to perform this operation using this protocol."}
	AuthorizationSourceIPMismatch     = Code{"AuthorizationSourceIPMismatch", 403, "This request is not authorized to perform this operation using this source IP {value}."}
	// InvalidAuthenticationInfo answers a refused OAuth bearer token, with a bearer
	// challenge (WWW-Authenticate): 401, and the message the service answers it with
	// (Microsoft's "Common REST API error codes" describes it as "The authentication
	// information was not provided in the correct format. Verify the value of
	// Authorization header.").
	InvalidAuthenticationInfo = Code{"InvalidAuthenticationInfo", 401, "Server failed to authenticate the request. Please refer to the information in the www-authenticate header."}
)

// The codes of the server.
var (
	InternalError = Code{"InternalError", 500, "The server encountered an internal error. Please retry the request."}
	ServerBusy    = Code{"ServerBusy", 503, "The server is currently unable to receive requests. Please retry your request."}
	// OperationTimedOut answers a request whose body stopped arriving. Azure answers its
	// own timeouts 500 under this name; a body its client stopped sending is the client's
	// doing, so it is 408 Request Timeout, which the SDKs retry as they retry a 500.
	OperationTimedOut = Code{"OperationTimedOut", 408, "The operation could not be completed within the permitted time."}
	// NoSpace is ServerBusy for a write refused because the server's disk is full:
	// clients retry it, and it succeeds once space is freed. A literal, as the If-None-Match
	// codes below are, so that no code builds it at the edge program's start.
	NoSpace = Code{"ServerBusy", 503, "The server's disk is full: nothing of this request was applied. Retry once space is freed."}
)

// The codes of Tabletop's change feed, an extension no Azure client sees (see
// worker/rest/README.md, "Sync protocol").
var (
	// CheckpointExpired answers a change feed request whose checkpoint, of this store and
	// this table, may have missed a deletion: it is older than the deletion records kept.
	// The client reconciles from a full read.
	CheckpointExpired = Code{"CheckpointExpired", 410, "The checkpoint is older than the deletion records the server keeps. Read the whole table again and reconcile."}
	// CheckpointFromAnotherStore answers a change feed request whose checkpoint another
	// store issued, or a later state of this one: the server's data was replaced (started
	// afresh, restored from an older copy). The table proves nothing about what the client
	// holds, so it must not reconcile by itself.
	CheckpointFromAnotherStore = Code{"CheckpointFromAnotherStore", 409, "The checkpoint was issued by another store: the server's data was replaced since. What the table lacks was not deleted from it."}
	// TableReplaced answers a change feed request whose checkpoint was issued for a table
	// deleted since (perhaps created again). As for CheckpointFromAnotherStore, the client
	// must not reconcile by itself.
	TableReplaced = Code{"TableReplaced", 409, "The table the checkpoint was issued for was deleted since. What the table lacks now was not deleted from it."}
)

// InvalidInput with the messages of Azure's for If-None-Match, which it refuses on entity
// writes. Literals rather than withMessage calls: the linker lays them out, and no code
// builds them at every start of the edge program (see worker/edge's startup tests).
var (
	// IfNoneMatchWithIfMatch is InvalidInput for an entity write sent with both If-Match
	// and If-None-Match.
	IfNoneMatchWithIfMatch = Code{"InvalidInput", 400, "Both If-Match and If-None-Match HTTP headers cannot be specified at the same time. Please specify either one of the headers or none of them."}
	// IfNoneMatchOnUpdate is InvalidInput for an update, merge or upsert sent with
	// If-None-Match: Azure names PUT for them all.
	IfNoneMatchOnUpdate = Code{"InvalidInput", 400, "If-None-Match HTTP header cannot be specified for PUT operations."}
	// IfNoneMatchOnDelete is InvalidInput for a Delete Entity sent with If-None-Match.
	IfNoneMatchOnDelete = Code{"InvalidInput", 400, "If-None-Match HTTP header cannot be specified for DELETE operations."}
)

// Codes under another code's name with a message of their own.
var (
	// TableNameReserved is InvalidResourceName for a name the service reserves.
	TableNameReserved = InvalidResourceName.withMessage("The specifed resource name is reserved.")
	// OutOfRangeInputUnnamed is OutOfRangeInput when the error names no field.
	OutOfRangeInputUnnamed = OutOfRangeInput.withMessage("One of the request inputs is out of range.")
	// HeadersTooLarge is InvalidInput for a request whose headers are larger than the
	// server reads.
	HeadersTooLarge = InvalidInput.withMessage("The request headers are too large.")
	// TooManyOperations is InvalidInput for a changeset of more than 100 operations.
	TooManyOperations = InvalidInput.withMessage("The batch request operation exceeds the maximum 100 changes per change set.")
)
