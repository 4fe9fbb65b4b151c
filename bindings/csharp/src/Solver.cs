namespace Kmx
{
    /// <summary>A training method and its parameters (kmx_solver); Train makes a Model.</summary>
    /// <remarks>Parameters: Param.Method, C, Eps, Bias (BiasMode), Shrinking, CacheSize, Multiclass (MulticlassMode),
    /// Levels, ClustersPerLevel, EarlyLevel, SampleSize; for kernel ridge regression Task (LearningTask), Lambda, Centers,
    /// CenterMethod (CenterSelection), Iterations, Tolerance, Validation, Rank, Clusters, Threshold, Oversampling, RankBySize.
    /// Set it up on one thread; Train only reads it.</remarks>
    public sealed class Solver : NativeObject
    {
        Solver(SolverHandle handle) : base(handle, SolverHandle.Null) { }

        /// <summary>A solver of the given method with default parameters (kmx_solver_create).</summary>
        public Solver(SolverMethod method) : this(Create(method)) { }

        /// <summary>A solver from "method=dcsvm C=8 levels=4 ..." (method defaults to dcsvm) (kmx_solver_create_from_string).</summary>
        public Solver(string parameters) : this(Create(parameters)) { }

        /// <summary>The same as new Solver(parameters): "method=svm C=8 eps=1e-3".</summary>
        public static Solver FromString(string parameters) => new Solver(parameters);

        static SolverHandle Create(SolverMethod method)
        {
            Native.KmxSolverCreate(out SolverHandle handle, method);
            return handle;
        }

        static SolverHandle Create(string parameters)
        {
            Native.KmxSolverCreateFromString(out SolverHandle handle, parameters);
            return handle;
        }

        internal SolverHandle Handle => (SolverHandle)RawHandle;

        /// <summary>Sets one parameter (kmx_solver_set_param).</summary>
        public void SetParam(Param param, double value) => Native.KmxSolverSetParam(Handle, param, value);

        /// <summary>Reads one parameter (kmx_solver_get_param).</summary>
        public double GetParam(Param param) => Scalar.Read(value => Native.KmxSolverGetParam(value, Handle, param));

        /// <summary>Sets parameters from "C=8 eps=1e-3 bias=off" (kmx_solver_set_params).</summary>
        public void SetParams(string parameters) => Native.KmxSolverSetParams(Handle, parameters);

        /// <summary>Multiplies C for the class with this label, as LIBSVM's -wi; weight > 0 (kmx_solver_set_class_weight).</summary>
        public void SetClassWeight(double label, double weight) => Native.KmxSolverSetClassWeight(Handle, label, weight);

        /// <summary>The training method (Param.Method).</summary>
        public SolverMethod Method => (SolverMethod)(int)GetParam(Param.Method);

        /// <summary>Trains on data (labels required, at least 2 classes; sample weights, if any, multiply C per row) (kmx_solver_train).</summary>
        /// <remarks>ctx gives threads, seed, budget and callbacks; a progress callback may cancel the training.</remarks>
        public Model Train(Context ctx, Kernel kernel, Dataset data)
        {
            Native.KmxSolverTrain(out ModelHandle handle, Context.OptionalHandle(ctx), Handle, kernel.Handle, data.Handle);
            handle.KernelCallback = kernel.Handle.Callback; // the model calls the kernel's function to predict
            return new Model(handle);
        }

        /// <summary>k-fold cross-validation, as LIBSVM's svm-train -v K (kmx_solver_cross_validate): the prediction of every
        /// row of data (a label, or a value for regression) by the model trained on the other folds.</summary>
        /// <remarks>Classification folds are stratified by class; the folds come from ctx's seed (ctx may be null: the
        /// default context). 2 &lt;= folds &lt;= data.Rows.</remarks>
        public double[] CrossValidate(Context ctx, Kernel kernel, Dataset data, long folds)
        {
            var predicted = new double[data.Rows];
            Native.KmxSolverCrossValidate(predicted, predicted.Length, Context.OptionalHandle(ctx), Handle, kernel.Handle,
                                          data.Handle, folds);
            return predicted;
        }

        /// <summary>CrossValidate at each value of one parameter (Param.C, or Param.Lambda for kernel ridge regression) on the
        /// same folds: element i holds the predictions at values[i] (kmx_solver_cross_validate_path).</summary>
        /// <remarks>The methods svm and dcsvm train the values in increasing order, each warm started from the previous
        /// solution: a grid search's row in a fraction of the time.</remarks>
        public double[][] CrossValidatePath(Context ctx, Kernel kernel, Dataset data, long folds, Param param, double[] values)
        {
            long rows = data.Rows;
            var all = new double[rows * values.Length];
            Native.KmxSolverCrossValidatePath(all, all.Length, Context.OptionalHandle(ctx), Handle, kernel.Handle, data.Handle,
                                              folds, param, values, values.Length);
            var byValue = new double[values.Length][];
            for (int v = 0; v < values.Length; v++)
            {
                byValue[v] = new double[rows];
                System.Array.Copy(all, v * rows, byValue[v], 0, rows);
            }
            return byValue;
        }
    }
}
