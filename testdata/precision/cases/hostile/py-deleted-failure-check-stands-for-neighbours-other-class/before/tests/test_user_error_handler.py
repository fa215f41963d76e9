import pytest


def test_error_handler_no_match(app, client):
    class CustomException(Exception):
        pass

    class UnacceptableCustomException(BaseException):
        pass

    @app.errorhandler(CustomException)
    def custom_exception_handler(e):
        return "custom"

    with pytest.raises(
        AssertionError, match="Custom exceptions must be subclasses of Exception."
    ):
        app.register_error_handler(UnacceptableCustomException, None)

    @app.route("/custom")
    def custom_test():
        raise CustomException()

    assert client.get("/custom").data == b"custom"
