def test_openapi_schema_is_served(api_client, db):
    # when
    response = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    # then
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_swagger_ui_is_served(client, db):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
