using System;

namespace Kmx
{
    /// <summary>A trained kernel machine (kmx_model): immutable, so Predict and DecisionValues may run on several threads at once.</summary>
    /// <remarks>A classifier (SVM methods, or kernel ridge regression on class labels) or a regression model (Krr, NystromKrr,
    /// MekaKrr, Falkon on real targets): then Task is LearningTask.TaskRegression, Classes is 0 and Predict gives values.</remarks>
    /// <remarks>Made by Solver.Train, Load or LoadFromBuffer; saved as a versioned, checksummed binary (Save, SaveToBuffer).
    /// A Context is used by one thread at a time: threads predicting together pass null or one Context each.</remarks>
    public sealed class Model : NativeObject
    {
        internal Model(ModelHandle handle) : base(handle, ModelHandle.Null) { }

        internal ModelHandle Handle => (ModelHandle)RawHandle;

        /// <summary>Reads a saved model (kmx_model_load); a damaged file raises KmxException (Status.Format).</summary>
        public static Model Load(string path)
        {
            Native.KmxModelLoad(out ModelHandle handle, path);
            return new Model(handle);
        }

        /// <summary>A model from the bytes SaveToBuffer made (kmx_model_load_from_buffer).</summary>
        public static Model LoadFromBuffer(byte[] buffer)
        {
            if (buffer == null) throw new ArgumentNullException(nameof(buffer));
            Native.KmxModelLoadFromBuffer(out ModelHandle handle, buffer, buffer.Length);
            return new Model(handle);
        }

        /// <summary>Writes the model to path, through a temporary file renamed into place (kmx_model_save).</summary>
        public void Save(string path) => Native.KmxModelSave(Handle, path);

        /// <summary>The saved form in memory, as Save would write it (kmx_model_save_to_buffer).</summary>
        public byte[] SaveToBuffer()
        {
            Native.KmxModelSaveToBuffer(null, 0, out long size, Handle);
            while (true)
            {
                var buffer = new byte[size];
                Native.KmxModelSaveToBuffer(buffer, buffer.Length, out long written, Handle);
                if (written == size) return buffer;
                size = written; // cannot happen to an immutable model; retry rather than truncate
            }
        }

        /// <summary>One fact about the model (kmx_model_info); see also the properties.</summary>
        public double Info(ModelInfoKey key) => Scalar.Read(value => Native.KmxModelInfo(value, Handle, key));

        /// <summary>The method that trained it (ModelInfoKey.InfoMethod).</summary>
        public SolverMethod Method => (SolverMethod)(int)Info(ModelInfoKey.InfoMethod);

        /// <summary>The number of classes, 0 for regression (ModelInfoKey.InfoClasses); their labels are ClassLabels().</summary>
        public long Classes => (long)Info(ModelInfoKey.InfoClasses);

        /// <summary>The number of features the model expects (ModelInfoKey.InfoColumns).</summary>
        public long Columns => (long)Info(ModelInfoKey.InfoColumns);

        /// <summary>The number of distinct support vectors stored (ModelInfoKey.InfoSupportVectors).</summary>
        public long SupportVectors => (long)Info(ModelInfoKey.InfoSupportVectors);

        /// <summary>Decision values per row: 1 (binary), c (one-vs-rest), c(c-1)/2 (one-vs-one) (ModelInfoKey.InfoDecisionValues).</summary>
        public long DecisionValuesPerRow => (long)Info(ModelInfoKey.InfoDecisionValues);

        /// <summary>The dual objective, summed over the binary problems (ModelInfoKey.InfoObjective).</summary>
        public double Objective => Info(ModelInfoKey.InfoObjective);

        /// <summary>The largest final KKT violation over the binary problems (ModelInfoKey.InfoKktViolation).</summary>
        public double KktViolation => Info(ModelInfoKey.InfoKktViolation);

        /// <summary>Solver iterations, summed over the binary problems (ModelInfoKey.InfoIterations).</summary>
        public long Iterations => (long)Info(ModelInfoKey.InfoIterations);

        /// <summary>Wall-clock training time in seconds (ModelInfoKey.InfoTrainSeconds).</summary>
        public double TrainSeconds => Info(ModelInfoKey.InfoTrainSeconds);

        /// <summary>True if the model has a bias term (ModelInfoKey.InfoBias).</summary>
        public bool HasBias => Info(ModelInfoKey.InfoBias) != 0;

        /// <summary>How several classes are combined (ModelInfoKey.InfoMulticlass).</summary>
        public MulticlassMode Multiclass => (MulticlassMode)(int)Info(ModelInfoKey.InfoMulticlass);

        /// <summary>What the model fits: classification or regression, never TaskAuto (ModelInfoKey.InfoTask).</summary>
        public LearningTask Task => (LearningTask)(int)Info(ModelInfoKey.InfoTask);

        /// <summary>True for a regression model: Predict gives values, not labels.</summary>
        public bool IsRegression => Task == LearningTask.TaskRegression;

        /// <summary>The ridge lambda of kernel ridge regression methods, 0 for SVMs (ModelInfoKey.InfoLambda).</summary>
        public double Lambda => Info(ModelInfoKey.InfoLambda);

        /// <summary>The cost C of SVM methods, 0 for kernel ridge regression and one-class (ModelInfoKey.InfoC).</summary>
        public double C => Info(ModelInfoKey.InfoC);

        /// <summary>The nu of a one-class SVM (SolverMethod.OneClass), 0 for other methods (ModelInfoKey.InfoNu).</summary>
        public double Nu => Info(ModelInfoKey.InfoNu);

        /// <summary>The class labels in increasing order, empty for regression (kmx_model_classes).</summary>
        public double[] ClassLabels()
        {
            var labels = new double[Classes];
            Native.KmxModelClasses(labels.Length == 0 ? null : labels, labels.Length, Handle); // regression: NULL
            return labels;
        }

        /// <summary>The names of the classes in ClassLabels() order, empty when they have none
        /// (kmx_model_class_names).</summary>
        public string[] ClassNames()
        {
            Native.KmxModelClassNames(null, 0, out long size, Handle);
            var bytes = new byte[size];
            Native.KmxModelClassNames(bytes, size, out size, Handle);
            string joined = System.Text.Encoding.UTF8.GetString(bytes, 0, bytes.Length - 1); // without the NUL
            return joined.Length == 0 ? new string[0] : joined.Split('\n');
        }

        /// <summary>Names the classes in ClassLabels() order (kmx_model_set_class_names): one name per class, 1 to
        /// 255 UTF-8 bytes without control characters, all distinct. Saved with the model (Java's String labels and
        /// R's factor levels travel the same way); none removes them. Not while another thread uses the model.</summary>
        public void SetClassNames(params string[] names)
        {
            Native.KmxModelSetClassNames(Handle, names == null ? null : string.Join("\n", names));
        }

        /// <summary>The predicted label (regression: value) of every row of data (kmx_model_predict).</summary>
        /// <remarks>Data with more columns than the model raises KmxException, and so does dense data with fewer;
        /// LIBSVM files with fewer are padded with zeros (absent columns are zeros there).</remarks>
        public double[] Predict(Context ctx, Dataset data)
        {
            var labels = new double[data.Rows];
            Predict(ctx, data, labels);
            return labels;
        }

        /// <summary>Writes the predicted labels into destination, which C checks holds one per row (kmx_model_predict).</summary>
        public void Predict(Context ctx, Dataset data, double[] destination) =>
            Native.KmxModelPredict(destination, destination?.Length ?? 0, Context.OptionalHandle(ctx), Handle, data.Handle);

        /// <summary>The decision values, row-major rows × DecisionValuesPerRow, one-vs-one pairs in LIBSVM's order (kmx_model_decision_values).</summary>
        /// <remarks>A binary value above 0 votes for the larger label; one-vs-one pair (i, j), i &lt; j, for class i; one-vs-rest value c for class c.</remarks>
        public double[] DecisionValues(Context ctx, Dataset data) => Filled(data.Rows * DecisionValuesPerRow, values => DecisionValues(ctx, data, values));

        /// <summary>Writes the decision values into destination, which C checks is large enough (kmx_model_decision_values).</summary>
        public void DecisionValues(Context ctx, Dataset data, double[] destination) =>
            Native.KmxModelDecisionValues(destination, destination?.Length ?? 0, Context.OptionalHandle(ctx), Handle, data.Handle);

        /// <summary>True if the model has probability estimates: an SVM classifier trained with Param.Probability = 1 (ModelInfoKey.InfoProbability).</summary>
        public bool HasProbabilities => Info(ModelInfoKey.InfoProbability) != 0;

        /// <summary>The class probabilities, row-major rows × Classes in ClassLabels() order, each row summing to 1, as LIBSVM's -b 1 (kmx_model_predict_probability).</summary>
        /// <remarks>A model without them (trained without Param.Probability = 1, a regression or one-class model) raises KmxException saying why.</remarks>
        public double[] PredictProbability(Context ctx, Dataset data) => Filled(data.Rows * Classes, values => PredictProbability(ctx, data, values));

        /// <summary>Writes the class probabilities into destination, which C checks is large enough (kmx_model_predict_probability).</summary>
        public void PredictProbability(Context ctx, Dataset data, double[] destination) =>
            Native.KmxModelPredictProbability(destination, destination?.Length ?? 0, Context.OptionalHandle(ctx), Handle, data.Handle);

        /// <summary>A new array of `length` values, filled by fill.</summary>
        static double[] Filled(long length, Action<double[]> fill)
        {
            var values = new double[length];
            fill(values);
            return values;
        }

        /// <summary>The decision values as a rows × DecisionValuesPerRow matrix.</summary>
        public double[,] DecisionValueMatrix(Context ctx, Dataset data)
        {
            long perRow = DecisionValuesPerRow;
            double[] flat = DecisionValues(ctx, data);
            var matrix = new double[perRow > 0 ? flat.Length / perRow : 0, perRow];
            Buffer.BlockCopy(flat, 0, matrix, 0, flat.Length * sizeof(double));
            return matrix;
        }
    }
}
