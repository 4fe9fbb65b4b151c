package io.kmx;

/**
 * A value of an enum-valued parameter: LogLevel and Precision (Context), KernelType (Kernel),
 * Method, Bias, Multiclass, Task, CenterMethod, Loss, Precision and ApproxMethod (Solver), Storage
 * (the predictor's "storage=" string). Context, Kernel and Solver take one with
 * setParam(Param, ParamValue) and return one with param(Param, Class); Library.paramValueType
 * names the type each parameter takes.
 */
public sealed interface ParamValue
        permits LogLevel, Precision, KernelType, Method, Bias, Multiclass, Task, CenterMethod, Loss, ApproxMethod,
                Storage {}
