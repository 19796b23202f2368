"""A view's file from its live entry (`import`): its texts, columns and parameters as Glue holds them."""

from __future__ import annotations

from gluecat.convert.parameters import managed
from gluecat.convert.view import view_from_glue
from gluecat.kinds.base import AdoptContext, NotModelled, Shape, typed_columns
from gluecat.model.base import model_data


def view_data(live: Shape, context: AdoptContext) -> Shape:
    typed_columns(live)
    if not live.get("ViewOriginalText") and not live.get("ViewExpandedText"):
        raise NotModelled("a view without view texts: nothing says what it selects, and a view file would add one")
    view = view_from_glue(live, context.database.name)
    return model_data(view.model_copy(update={"parameters": managed(view.parameters, context.ignore)}))
