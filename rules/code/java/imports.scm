; Where names come from other files of the code: the class a class
; extends (`class Orders extends BaseHandler`, `extends Base<SQSEvent>`),
; whose methods are the handler's too.
; Captures: @source (the class extended), @star (all its methods).
(class_declaration superclass: (superclass (type_identifier) @source @star))
(class_declaration superclass: (superclass (generic_type (type_identifier) @source @star)))
