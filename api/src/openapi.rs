//! The API described for machines and people: `GET /openapi.json` (an
//! OpenAPI 3.1 document) and `GET /api` (a reference page drawn from it).
//!
//! The document is generated from the code: each handler carries its
//! `#[utoipa::path]` (route, parameters, bodies, statuses) beside it, and
//! every body type derives its schema from the same definition serde
//! reads and writes. The store's and engine's answer types derive theirs
//! in their own crates. A test holds the document to the router: no route
//! without its description, no description without its route.

use std::sync::OnceLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::OpenApi as Document;
use utoipa::{Modify, OpenApi};

use crate::routes::web::esc;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tabletape",
        description = "Record, replay, fork and narrate tabletop games. Every read is shaped for \
its viewer: the owner's token sees everything, a seat's token what the rules show that seat, \
no token (on a public game) what anyone may see. Errors are JSON: `error` (a code), `message` \
(a sentence naming the field or rule), `rule` on a 422."
    ),
    paths(
        crate::routes::server::healthz,
        crate::routes::server::kinds,
        crate::routes::games::list_games,
        crate::routes::games::create_game,
        crate::routes::games::rematch,
        crate::routes::games::seat_links,
        crate::routes::games::summary,
        crate::routes::games::legal,
        crate::routes::games::act,
        crate::routes::games::events,
        crate::routes::games::state,
        crate::routes::games::board,
        crate::routes::games::replay,
        crate::routes::games::branches,
        crate::routes::games::fork,
        crate::routes::games::undo,
        crate::routes::games::narrative,
        crate::routes::dice::share,
        crate::routes::study::note,
        crate::routes::study::name,
        crate::routes::study::compare,
        crate::routes::games::export,
        crate::routes::games::import,
        crate::routes::server::backup,
        crate::routes::games::verify,
        crate::routes::live::live,
        crate::routes::server::metrics_text,
        crate::routes::web::home,
        crate::routes::web::app_js,
        crate::routes::web::app_css,
        crate::routes::web::draw_js,
        crate::routes::web::draw::draw_legless,
        crate::routes::web::draw::draw_lostworlds,
        crate::routes::web::qr,
        crate::routes::web::table::table,
        crate::routes::web::table::table_page,
        crate::routes::web::story::story_page,
        crate::routes::web::session,
        openapi_json,
        reference,
    ),
    modifiers(&Tokens, &Bodies, &Names, &Tables, &Links),
    tags(
        (name = "games", description = "Games: create, act, read, fork, tell, export"),
        (name = "server", description = "The server and its store"),
        (name = "web", description = "The web recorder's pages and the reads they make"),
    )
)]
pub(crate) struct ApiDoc;

/// Where an answer's ids lead, for a client (or a stateful tester) that
/// follows the document rather than our source: a new game's id (`game`,
/// from `POST /games` and a rematch) to every operation that takes a game
/// id, a fork's name (`name`) to every operation on that game that takes a
/// branch, and a new event's seq (`seq`, from an action, a note or a share
/// of the dice) to every read at a seq (`at`, `to`, `from`). Added once the
/// paths are all there, so none is missed.
struct Links;

impl Modify for Links {
    fn modify(&self, doc: &mut Document) {
        use utoipa::openapi::link::LinkBuilder;
        use utoipa::openapi::path::ParameterIn;
        use utoipa::openapi::RefOr;
        // (operation id, whether it takes a branch) of each operation on a game,
        // and (operation id, the parameter) of each that reads at a seq.
        let mut on_a_game: Vec<(String, bool)> = Vec::new();
        let mut at_a_seq: Vec<(String, String)> = Vec::new();
        for (path, item) in &doc.paths.paths {
            if !path.contains("{id}") {
                continue;
            }
            for op in [&item.get, &item.post].into_iter().flatten() {
                let Some(id) = op.operation_id.clone() else {
                    continue;
                };
                let branch =
                    op.parameters.iter().flatten().any(|p| {
                        p.name == "branch" && matches!(p.parameter_in, ParameterIn::Query)
                    });
                let seq = op.parameters.iter().flatten().find(|p| {
                    matches!(p.name.as_str(), "at" | "to" | "from")
                        && matches!(p.parameter_in, ParameterIn::Query)
                });
                if let Some(seq) = seq {
                    at_a_seq.push((id.clone(), seq.name.clone()));
                }
                on_a_game.push((id, branch));
            }
        }
        let link = |target: &str, from_fork: bool| {
            let id = if from_fork {
                "$request.path.id"
            } else {
                "$response.body#/game"
            };
            let mut link = LinkBuilder::new().operation_id(target).parameter("id", id);
            if from_fork {
                link = link.parameter("branch", "$response.body#/name");
            }
            link.build()
        };
        for (source, from_fork) in [("create_game", false), ("rematch", false), ("fork", true)] {
            let Some(op) = operations(doc).find(|op| op.operation_id.as_deref() == Some(source))
            else {
                continue;
            };
            let Some(RefOr::T(created)) = op.responses.responses.get_mut("201") else {
                continue;
            };
            for (target, takes_branch) in &on_a_game {
                if target != source && (!from_fork || *takes_branch) {
                    created
                        .links
                        .insert(target.clone(), RefOr::T(link(target, from_fork)));
                }
            }
        }
        // A new event (an action, a note, a share of the dice) to the reads
        // that go to its seq: the state, the replay, the board as it stood.
        for source in ["act", "note", "share"] {
            let Some(op) = operations(doc).find(|op| op.operation_id.as_deref() == Some(source))
            else {
                continue;
            };
            let Some(RefOr::T(written)) = op.responses.responses.get_mut("201") else {
                continue;
            };
            for (target, seq) in &at_a_seq {
                let link = LinkBuilder::new()
                    .operation_id(target)
                    .parameter("id", "$request.path.id")
                    .parameter(seq, "$response.body#/seq")
                    .build();
                written.links.insert(target.clone(), RefOr::T(link));
            }
        }
    }
}

/// The token schemes: a bearer token in `Authorization`, or (for reads)
/// the game's cookie the web page sets.
struct Tokens;

impl Modify for Tokens {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A game's owner token or a seat's token (from creating it), or the store's admin token",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "game_cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "tt_{id}",
                "A game's token as the web page keeps it; honoured for reads (GET) only",
            ))),
        );
    }
}

/// Every operation of the document, whatever its method.
fn operations(doc: &mut Document) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    doc.paths.paths.values_mut().flat_map(|item| {
        [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.patch.as_mut(),
            item.delete.as_mut(),
        ]
        .into_iter()
        .flatten()
    })
}

/// What every operation that reads a body may answer before its handler
/// runs, said once here rather than on each: 413 for a body over the
/// size limit (`BODY_LIMIT_BYTES`, a layer on the whole router) and, for
/// a JSON body, 415 when it is not sent as `application/json` (the JSON
/// extractor's refusal). Both are the usual JSON error.
struct Bodies;

impl Modify for Bodies {
    fn modify(&self, doc: &mut Document) {
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let error = || {
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build()
        };
        for op in operations(doc) {
            let Some(body) = &op.request_body else {
                continue;
            };
            let json = body.content.contains_key("application/json");
            let answers = &mut op.responses.responses;
            answers.entry("413".into()).or_insert_with(|| {
                ResponseBuilder::new()
                    .description("The body is over the size limit")
                    .content("application/json", error())
                    .into()
            });
            if json {
                answers.entry("415".into()).or_insert_with(|| {
                    ResponseBuilder::new()
                        .description("The body is not sent as `application/json`")
                        .content("application/json", error())
                        .into()
                });
            }
        }
    }
}

/// Parameters that name something are never empty: a viewer (`as`), a
/// branch and a format are refused as `?as=` (400) or not found as
/// `?branch=` (404), so the document says `minLength: 1` for each,
/// wherever it is taken. An idempotency key, in its header or a body's
/// field, is what the store takes: 1 to 200 visible ASCII characters.
struct Names;

impl Modify for Names {
    fn modify(&self, doc: &mut Document) {
        use utoipa::openapi::{RefOr, Schema};
        let key = |o: &mut utoipa::openapi::schema::Object| {
            o.min_length = Some(1);
            o.max_length = Some(tabletape_store::journal::IDEMPOTENCY_KEY_MAX);
            o.pattern = Some("^[!-~]+$".into());
        };
        if let Some(components) = doc.components.as_mut() {
            // A new game's kind is one the engine knows.
            if let Some(RefOr::T(Schema::Object(create))) = components.schemas.get_mut("CreateBody")
            {
                if let Some(RefOr::T(Schema::Object(kind))) = create.properties.get_mut("kind") {
                    kind.enum_values = Some(
                        tabletape_engine::kinds()
                            .iter()
                            .map(|k| k.name().into())
                            .collect(),
                    );
                }
            }
            for schema in components.schemas.values_mut() {
                if let RefOr::T(Schema::Object(o)) = schema {
                    if let Some(RefOr::T(Schema::Object(k))) =
                        o.properties.get_mut("idempotency_key")
                    {
                        key(k);
                    }
                }
            }
        }
        for op in operations(doc) {
            // A seat named that is not at the game's table: of the right
            // form, but not for this game (`JournalError::Unfit`), in the
            // form the operation's other refusals take.
            let names_a_seat = op
                .parameters
                .iter()
                .flatten()
                .any(|p| matches!(p.name.as_str(), "as" | "seat"));
            let answers = &mut op.responses.responses;
            if names_a_seat && !answers.contains_key("422") {
                if let Some(RefOr::T(malformed)) = answers.get("400") {
                    let mut unfit = malformed.clone();
                    unfit.description = "Of the right form, but not for this game: `rule` names why (`table.seat`: a seat that is not at its table)".into();
                    answers.insert("422".into(), RefOr::T(unfit));
                }
            }
            for p in op.parameters.iter_mut().flatten() {
                let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else {
                    continue;
                };
                match p.name.as_str() {
                    // A viewer is the owner, the public or a seat's number
                    // (one no table is near reaching is refused as unread).
                    "as" => {
                        o.min_length.get_or_insert(1);
                        o.pattern = Some("^(owner|public|[0-9]{1,9})$".into());
                    }
                    "branch" | "format" => {
                        o.min_length.get_or_insert(1);
                    }
                    "Idempotency-Key" => key(o),
                    // A seq, never null: a header has no null.
                    "Last-Event-ID" => {
                        o.schema_type = utoipa::openapi::schema::SchemaType::new(
                            utoipa::openapi::schema::Type::Integer,
                        );
                        o.minimum = Some(0f64.into());
                    }
                    _ => {}
                }
            }
        }
    }
}

/// One line with something to show: no control character, no line break,
/// and not blank (what the store checks of a name or a title). The one
/// character that shows is neither a space nor a control character either.
const ONE_LINE: &str = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*[^\\s\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029][^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$";

/// A game id: 1 to 64 ASCII letters, digits, `-`, `_` and `.`, not
/// starting with `.`.
const GAME_ID: &str = "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$";

/// A new game's table as each kind takes it: the players a kind seats
/// (from its own `min_players` and `max_players`), each name one line of
/// 1 to 64 characters with something to show. `CreateBody` becomes its
/// own fields and one of the kinds' tables.
struct Tables;

impl Modify for Tables {
    fn modify(&self, doc: &mut Document) {
        use utoipa::openapi::schema::{
            AllOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Type,
        };
        use utoipa::openapi::RefOr;
        let Some(components) = doc.components.as_mut() else {
            return;
        };
        let Some(mut create) = components.schemas.remove("CreateBody") else {
            return;
        };
        // A seed is any u64 (`int64`, its format, would stop at 2^63 - 1).
        if let RefOr::T(utoipa::openapi::Schema::Object(o)) = &mut create {
            if let Some(RefOr::T(utoipa::openapi::Schema::Object(seed))) =
                o.properties.get_mut("seed")
            {
                seed.format = None;
                seed.minimum = Some(utoipa::Number::UInt(0));
                seed.maximum = usize::try_from(u64::MAX).ok().map(utoipa::Number::UInt);
            }
            // A game id the table chooses: what `check_game_id` takes, bar
            // the words of routes (refused as unfit: no pattern says them).
            if let Some(RefOr::T(utoipa::openapi::Schema::Object(id))) = o.properties.get_mut("id")
            {
                id.pattern = Some(GAME_ID.into());
            }
            // A title is a line as a player's name is, of up to 120 characters.
            if let Some(RefOr::T(utoipa::openapi::Schema::Object(title))) =
                o.properties.get_mut("title")
            {
                title.min_length = Some(1);
                title.max_length = Some(tabletape_store::journal::TITLE_MAX);
                title.pattern = Some(ONE_LINE.into());
            }
        }
        // No control character, no line break, and not blank.
        let name = || {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(tabletape_store::journal::PLAYER_NAME_MAX))
                .pattern(Some(ONE_LINE))
                .build()
        };
        let mut tables = OneOfBuilder::new();
        for kind in tabletape_engine::kinds() {
            let info = kind.info();
            tables = tables.item(
                ObjectBuilder::new()
                    .property(
                        "kind",
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .enum_values(Some([info.kind])),
                    )
                    .property(
                        "players",
                        ArrayBuilder::new()
                            .items(name())
                            .min_items(Some(info.min_players))
                            .max_items(Some(info.max_players)),
                    )
                    .required("kind"),
            );
        }
        let whole: RefOr<_> = AllOfBuilder::new().item(create).item(tables).into();
        components.schemas.insert("CreateBody".into(), whole);
    }
}

/// The document, built once.
pub(crate) fn document() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(ApiDoc::openapi)
}

#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "server",
    summary = "This API as an OpenAPI 3.1 document",
    responses((status = 200, description = "The document", content_type = "application/json"))
)]
pub(crate) async fn openapi_json() -> Response {
    static JSON: OnceLock<serde_json::Value> = OnceLock::new();
    let json = JSON.get_or_init(|| {
        let mut json = serde_json::to_value(document()).expect("the document serializes");
        spec_link_names(&mut json);
        unsigned_bounds(&mut json);
        live_frames(&mut json);
        json
    });
    axum::Json(json).into_response()
}

/// utoipa writes an unsigned integer as `format: int64` (or `int32`) from
/// 0, which stops at 2^63 - 1 (2^31 - 1), below what the server reads: a
/// u64 or u32 is said as what it is, from 0 to its largest.
fn unsigned_bounds(json: &mut serde_json::Value) {
    match json {
        serde_json::Value::Object(o) => {
            let largest = match o.get("format").and_then(serde_json::Value::as_str) {
                Some("int64") => Some(u64::MAX),
                Some("int32") => Some(u64::from(u32::MAX)),
                _ => None,
            };
            let unsigned = o.get("minimum") == Some(&serde_json::json!(0));
            if let (Some(largest), true, false) = (largest, unsigned, o.contains_key("maximum")) {
                o.remove("format");
                o.insert("maximum".into(), largest.into());
            }
            o.values_mut().for_each(unsigned_bounds);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(unsigned_bounds),
        _ => {}
    }
}

/// The live stream's answer, frame by frame as a reader of server-sent
/// events gets one: an `event` frame (its id the event's seq, its data the
/// event as the viewer may see it) or a `line` frame (the current line
/// moved), each with JSON data.
fn live_frames(json: &mut serde_json::Value) {
    let stream = &mut json["paths"]["/games/{id}/live"]["get"]["responses"]["200"]["content"]
        ["text/event-stream"];
    if stream.is_object() {
        stream["schema"] = serde_json::json!({
            "type": "object",
            "required": ["event", "data"],
            "properties": {
                "event": {"enum": ["event", "line"]},
                "id": {"type": "string", "pattern": "^[0-9]+$"},
                "data": {"type": "string", "contentMediaType": "application/json"},
            },
        });
    }
}

/// utoipa 5.5 writes a Link's fields as Rust names (`operation_id`); the
/// specification's are `operationId`, `operationRef` and `requestBody`, and
/// a tool reading the document knows only those.
fn spec_link_names(json: &mut serde_json::Value) {
    let operations = json["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(serde_json::Value::as_object_mut)
        .flat_map(|item| item.values_mut());
    for op in operations {
        let responses = op["responses"]
            .as_object_mut()
            .into_iter()
            .flat_map(|r| r.values_mut());
        for response in responses {
            let links = response["links"]
                .as_object_mut()
                .into_iter()
                .flat_map(|l| l.values_mut());
            for link in links.filter_map(serde_json::Value::as_object_mut) {
                for (rust, spec) in [
                    ("operation_id", "operationId"),
                    ("operation_ref", "operationRef"),
                    ("request_body", "requestBody"),
                ] {
                    if let Some(v) = link.remove(rust) {
                        link.insert(spec.into(), v);
                    }
                }
            }
        }
    }
}

#[utoipa::path(
    get,
    path = "/api",
    tag = "server",
    summary = "This API for people: every route, its parameters and answers",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html"))
)]
pub(crate) async fn reference() -> Response {
    static PAGE: OnceLock<String> = OnceLock::new();
    let page = PAGE.get_or_init(|| reference_page(document()));
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], page.as_str()).into_response()
}

/// A plain page drawn from the document: each route with its summary,
/// parameters, body and answers, schemas named (their fields are in
/// `/openapi.json`).
fn reference_page(doc: &Document) -> String {
    let json = serde_json::to_value(doc).expect("the document serializes");
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Tabletape API</title><link rel=\"stylesheet\" href=\"/assets/app.css\"></head>\
         <body><main class=\"reference\"><h1>Tabletape API</h1>",
    );
    if let Some(about) = json["info"]["description"].as_str() {
        html.push_str(&format!("<p>{}</p>", prose(about)));
    }
    html.push_str(
        "<p>The same as a machine reads it: <a href=\"/openapi.json\">/openapi.json</a> \
         (OpenAPI 3.1).</p>",
    );
    for (path, item) in json["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            html.push_str(&format!(
                "<section><h2><code>{} {}</code></h2><p>{}</p>",
                esc(&method.to_uppercase()),
                esc(path),
                prose(op["summary"].as_str().unwrap_or_default())
            ));
            let params: Vec<String> = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    format!(
                        "<li><code>{}</code> ({}{}){}</li>",
                        esc(p["name"].as_str().unwrap_or_default()),
                        esc(p["in"].as_str().unwrap_or_default()),
                        if p["required"] == true {
                            ", required"
                        } else {
                            ""
                        },
                        p["description"]
                            .as_str()
                            .map(|d| format!(": {}", prose(d)))
                            .unwrap_or_default()
                    )
                })
                .collect();
            if !params.is_empty() {
                html.push_str(&format!("<h3>Parameters</h3><ul>{}</ul>", params.concat()));
            }
            if let Some(body) = op.get("requestBody") {
                html.push_str(&format!(
                    "<h3>Body</h3><p>{}</p>",
                    esc(&content_names(&body["content"]))
                ));
            }
            html.push_str("<h3>Answers</h3><ul>");
            for (status, answer) in op["responses"].as_object().into_iter().flatten() {
                let content = content_names(&answer["content"]);
                html.push_str(&format!(
                    "<li><code>{}</code> {}{}</li>",
                    esc(status),
                    prose(answer["description"].as_str().unwrap_or_default()),
                    if content.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", esc(&content))
                    }
                ));
            }
            html.push_str("</ul></section>");
        }
    }
    html.push_str("</main></body></html>");
    html
}

/// A description as HTML: escaped, and each `quoted` word set as code, as
/// the descriptions write names, fields and values.
pub fn prose(text: &str) -> String {
    // An unpaired backquote is no quote: the text stays as written.
    if text.matches('`').count() % 2 == 1 {
        return esc(text);
    }
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", esc(part))
            } else {
                esc(part)
            }
        })
        .collect()
}

/// "application/json: Acted" for each content type of a body.
fn content_names(content: &serde_json::Value) -> String {
    content
        .as_object()
        .into_iter()
        .flatten()
        .map(|(kind, media)| {
            let schema = &media["schema"];
            let name = schema["$ref"]
                .as_str()
                .or_else(|| schema["items"]["$ref"].as_str().map(|_| "a list"))
                .map(|r| r.rsplit('/').next().unwrap_or(r).to_string())
                .or_else(|| schema["type"].as_str().map(str::to_string))
                .unwrap_or_default();
            if name.is_empty() {
                kind.clone()
            } else {
                format!("{kind}: {name}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
