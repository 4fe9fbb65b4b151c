package io.kmx;

import java.util.Arrays;

/**
 * A training method and its parameters (C, eps, bias, levels, ...; for kernel ridge regression task,
 * lambda, centers, iterations, ...): train() turns a kernel and a labelled dataset into a Model. Set parameters from one thread; once set, train() only reads them.
 */
public final class Solver extends NativeResource {
    private Solver(long address) {
        super(address, freeing(address, kmx::kmx_solver_free));
    }

    /** A solver for the given method with default parameters. */
    public static Solver create(Method method) {
        return new Solver(kmx.kmx_solver_create(method));
    }

    /** A solver from "method=dcsvm C=8 levels=4 ..." (the method defaults to dcsvm). */
    public static Solver createFromString(String params) {
        return new Solver(kmx.kmx_solver_create_from_string(params));
    }

    /**
     * Sets one solver parameter (METHOD, C, EPS, BIAS, SHRINKING, CACHE_SIZE, MULTICLASS, LEVELS, ...;
     * TASK, LAMBDA, CENTERS, CENTER_METHOD, ITERATIONS, TOLERANCE, VALIDATION, RANK, CLUSTERS, ...).
     */
    public void setParam(Param param, double value) {
        kmx.kmx_solver_set_param(this, param, value);
    }

    /** A solver parameter's value. */
    public double param(Param param) {
        return kmx.kmx_solver_get_param(this, param);
    }

    /**
     * Sets an enum-valued parameter (METHOD, BIAS, MULTICLASS, TASK, CENTER_METHOD, KERNEL_PRECISION,
     * LOSS, APPROX) to value, e.g. {@code setParam(Param.METHOD, Method.FALKON)};
     * IllegalArgumentException if value is not of the type param takes (Library.paramValueType).
     */
    public void setParam(Param param, ParamValue value) {
        setParam(param, ParamValues.encode(param, value));
    }

    /** An enum-valued parameter's value as its type, e.g. {@code param(Param.BIAS, Bias.class)}. */
    public <E extends Enum<E> & ParamValue> E param(Param param, Class<E> type) {
        return ParamValues.decode(param, param(param), type);
    }

    /** The training method (its METHOD parameter). */
    public Method method() {
        return param(Param.METHOD, Method.class);
    }

    /** Sets parameters from "key=value ..." (all checked first). */
    public void setParams(String params) {
        kmx.kmx_solver_set_params(this, params);
    }

    /** Multiplies C for the class with this label by weight > 0 (LIBSVM's -wi). */
    public void setClassWeight(double label, double weight) {
        kmx.kmx_solver_set_class_weight(this, label, weight);
    }

    /**
     * Trains on data (labels required, at least 2 classes; its sample weights, if any, multiply C
     * per row) with kernel; ctx (may be null) gives threads, seed, budget and callbacks. A classifier
     * trained on a dataset with class names (Dataset.createNamed) carries them (Model.classNames).
     */
    public Model train(Context ctx, Kernel kernel, Dataset data) {
        Model model = new Model(kmx.kmx_solver_train(ctx, this, kernel, data), kernel.bridge());
        String[] names = data.classNames();
        if (names.length > 0 && model.classes() == names.length) {
            try {
                model.setClassNames(names);
            } catch (RuntimeException e) {
                model.close();
                throw e;
            }
        }
        return model;
    }

    /**
     * k-fold cross-validation (LIBSVM's svm-train -v K): the prediction of every row of data by the
     * model trained on the other folds (a label, or a value for regression), as train() would train
     * them. Classification folds are stratified by class; the folds come from ctx's seed (ctx may be
     * null: the default context). 2 &lt;= folds &lt;= rows.
     */
    public double[] crossValidate(Context ctx, Kernel kernel, Dataset data, long folds) {
        double[] out = new double[Matrices.length(data.rows(), 1)];
        kmx.kmx_solver_cross_validate(out, ctx, this, kernel, data, folds);
        return out;
    }

    /**
     * crossValidate at each value of one parameter (Param.C, or Param.LAMBDA for kernel ridge
     * regression) on the same folds: row i of the result is the predictions at values[i]. The
     * methods svm and dcsvm train the values in increasing order, each warm started from the previous
     * solution: a grid search's row in a fraction of the time (kmx_solver_cross_validate_path).
     */
    public double[][] crossValidatePath(Context ctx, Kernel kernel, Dataset data, long folds, Param param,
            double[] values) {
        int rows = Matrices.length(data.rows(), 1);
        double[] out = new double[Matrices.length(data.rows(), values.length)];
        kmx.kmx_solver_cross_validate_path(out, ctx, this, kernel, data, folds, param, values);
        double[][] byValue = new double[values.length][];
        for (int v = 0; v < values.length; v++) byValue[v] = Arrays.copyOfRange(out, v * rows, (v + 1) * rows);
        return byValue;
    }
}
