//! A form-mode elicitation shows its fields in the order of
//! `requestedSchema.properties`, so the model keeps that order.

use mcp_core::elicitation::{ElicitRequestFormParams, ElicitRequestParams};
use mcp_tests::examples;
use mcp_tests::schema::Schema;
use serde_json::Value;

fn property_names(params: &Value) -> Vec<String> {
    params["requestedSchema"]["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn the_fields_of_every_official_form_keep_their_order() {
    let forms: Vec<_> = examples::all(Schema::Modern)
        .into_iter()
        .filter(|e| e.definition == "ElicitRequestFormParams")
        .collect();
    assert!(!forms.is_empty(), "no ElicitRequestFormParams examples");
    for form in forms {
        let params: ElicitRequestFormParams =
            serde_json::from_value(form.value.clone()).expect("decodes");
        let back = serde_json::to_value(&params).expect("encodes");
        assert_eq!(
            property_names(&back),
            property_names(&form.value),
            "{}",
            form.path.display()
        );
    }
}

#[test]
fn fields_out_of_alphabetical_order_keep_their_order() {
    let params = serde_json::json!({
        "mode": "form",
        "message": "Who are you?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "zip": {"type": "string"},
                "name": {"type": "string"},
                "age": {"type": "integer"},
                "email": {"type": "string", "format": "email"}
            }
        }
    });
    let decoded: ElicitRequestParams = serde_json::from_value(params.clone()).expect("decodes");
    let back = serde_json::to_value(&decoded).expect("encodes");
    assert_eq!(property_names(&back), ["zip", "name", "age", "email"]);
    assert_eq!(back, params);
}
