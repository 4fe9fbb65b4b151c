using System;

namespace Kmx
{
    /// <summary>A compact DC-Pred++ predictor (kmx_predictor) built from a trained Model: a k-means tree in input space with a
    /// small Nystrom expansion per leaf, far cheaper to evaluate and store than the model.</summary>
    /// <remarks>Immutable, so Predict and DecisionValues may run on several threads at once. It owns its blob and does not depend
    /// on the model, data or context it was built from: it may outlive them. The blob (ToBytes, Save) is what the C inference
    /// subset reads in place.</remarks>
    public sealed class Predictor : NativeObject
    {
        Predictor(PredictorHandle handle) : base(handle, PredictorHandle.Null) { }

        internal PredictorHandle Handle => (PredictorHandle)RawHandle;

        /// <summary>Builds a predictor from model and its labelled training data (kmx_predictor_build). SVM models take
        /// "leaves=4 landmarks=16 pseudo=32 storage=int8" (storage float64, float32, int16, int8 or int4; float32=1 is storage=float32),
        /// or a budget "max_bytes=65536 max_us=2" (the most accurate predictor within it, searched on a validation split);
        /// KRR-family models use their own centers (storage only); null for defaults.</summary>
        public static Predictor Build(Context ctx, Model model, Dataset train, string parameters = null)
        {
            Native.KmxPredictorBuild(out PredictorHandle handle, Context.OptionalHandle(ctx), model.Handle, train.Handle, parameters);
            return new Predictor(handle);
        }

        /// <summary>Reads a saved predictor (kmx_predictor_load); a damaged file raises KmxException (Status.Format).</summary>
        public static Predictor Load(string path)
        {
            Native.KmxPredictorLoad(out PredictorHandle handle, path);
            return new Predictor(handle);
        }

        /// <summary>A predictor from the bytes ToBytes made (kmx_predictor_load_from_buffer).</summary>
        public static Predictor FromBytes(byte[] blob)
        {
            if (blob == null) throw new ArgumentNullException(nameof(blob));
            Native.KmxPredictorLoadFromBuffer(out PredictorHandle handle, blob, blob.Length);
            return new Predictor(handle);
        }

        /// <summary>Writes the blob to path (kmx_predictor_save).</summary>
        public void Save(string path) => Native.KmxPredictorSave(Handle, path);

        /// <summary>Writes the blob as a C header for kmx_infer programs: an aligned static const unsigned char name[] and
        /// its length NAME_LEN (name upper-cased); name must be a C identifier (kmx_predictor_export_c).</summary>
        public void ExportC(string path, string name) => Native.KmxPredictorExportC(Handle, path, name);

        /// <summary>The blob in memory, as Save writes it: a size query, then the copy (kmx_predictor_save_to_buffer).</summary>
        public byte[] ToBytes()
        {
            Native.KmxPredictorSaveToBuffer(null, 0, out long size, Handle);
            var blob = new byte[size];
            Native.KmxPredictorSaveToBuffer(blob, blob.Length, out long written, Handle);
            return blob;
        }

        /// <summary>One fact about the predictor (kmx_predictor_info); see also the properties.</summary>
        public double Info(PredictorInfoKey key) => Scalar.Read(value => Native.KmxPredictorInfo(value, Handle, key));

        /// <summary>The size of the saved blob in bytes (PredictorInfoKey.PredictorBytes).</summary>
        public long Bytes => (long)Info(PredictorInfoKey.PredictorBytes);

        /// <summary>The leaves of the k-means tree (PredictorInfoKey.PredictorLeaves).</summary>
        public long Leaves => (long)Info(PredictorInfoKey.PredictorLeaves);

        /// <summary>Landmarks, summed over the leaves (PredictorInfoKey.PredictorLandmarks).</summary>
        public long Landmarks => (long)Info(PredictorInfoKey.PredictorLandmarks);

        /// <summary>Pseudo-landmarks, summed over the leaves (PredictorInfoKey.PredictorPseudo).</summary>
        public long PseudoLandmarks => (long)Info(PredictorInfoKey.PredictorPseudo);

        /// <summary>The arena in bytes that the C inference subset needs for it (PredictorInfoKey.PredictorArenaBytes).</summary>
        public long ArenaBytes => (long)Info(PredictorInfoKey.PredictorArenaBytes);

        /// <summary>The number of features (PredictorInfoKey.PredictorColumns).</summary>
        public long Columns => (long)Info(PredictorInfoKey.PredictorColumns);

        /// <summary>The number of classes, 0 for regression (PredictorInfoKey.PredictorClasses).</summary>
        public long Classes => (long)Info(PredictorInfoKey.PredictorClasses);

        /// <summary>Decision values per row (PredictorInfoKey.PredictorOutputs).</summary>
        public long DecisionValuesPerRow => (long)Info(PredictorInfoKey.PredictorOutputs);

        /// <summary>True if its real arrays are floats: storage Float32, Int16 or Int8 (PredictorInfoKey.PredictorFloat32).</summary>
        public bool IsFloat32 => Info(PredictorInfoKey.PredictorFloat32) != 0;

        /// <summary>How its blob stores its numbers, the storage=... it was built with (PredictorInfoKey.PredictorStorage).</summary>
        public StorageType Storage => (StorageType)(int)Info(PredictorInfoKey.PredictorStorage);

        /// <summary>Built to a budget ("max_bytes=65536 max_us=2"): the fraction of the validation rows (a fifth of the training
        /// rows) it predicted right; NaN for other predictors (PredictorInfoKey.PredictorValidationAccuracy).</summary>
        public double ValidationAccuracy => Info(PredictorInfoKey.PredictorValidationAccuracy);

        /// <summary>Built to a budget: true if the search chose the model itself, which was trained on the validation rows too,
        /// so ValidationAccuracy is its accuracy on rows it was trained on (in-sample, optimistic); false when measured on
        /// held-out rows, and for other predictors (PredictorInfoKey.PredictorValidationInSample).</summary>
        public bool IsValidationInSample => Info(PredictorInfoKey.PredictorValidationInSample) == 1;

        /// <summary>Built to a budget: microseconds per row measured on the validation rows when built, on that machine; else NaN
        /// (PredictorInfoKey.PredictorValidationUs).</summary>
        public double ValidationMicroseconds => Info(PredictorInfoKey.PredictorValidationUs);

        /// <summary>Built to a budget: the landmarks-per-leaf knob the search chose; else NaN
        /// (PredictorInfoKey.PredictorLandmarksPerLeaf).</summary>
        public double LandmarksPerLeaf => Info(PredictorInfoKey.PredictorLandmarksPerLeaf);

        /// <summary>Built to a budget: how many candidates the search built and measured; else NaN
        /// (PredictorInfoKey.PredictorCandidates).</summary>
        public double Candidates => Info(PredictorInfoKey.PredictorCandidates);

        /// <summary>True for the predictor of a regression model.</summary>
        public bool IsRegression => Classes == 0;

        /// <summary>The predicted label (regression: value) of every row of data (kmx_predictor_predict).</summary>
        public double[] Predict(Context ctx, Dataset data)
        {
            var labels = new double[data.Rows];
            Native.KmxPredictorPredict(labels, labels.Length, Context.OptionalHandle(ctx), Handle, data.Handle);
            return labels;
        }

        /// <summary>The decision values, row-major rows × DecisionValuesPerRow, in the model's order (kmx_predictor_decision_values).</summary>
        public double[] DecisionValues(Context ctx, Dataset data)
        {
            var values = new double[data.Rows * DecisionValuesPerRow];
            Native.KmxPredictorDecisionValues(values, values.Length, Context.OptionalHandle(ctx), Handle, data.Handle);
            return values;
        }

        /// <summary>The class labels in increasing order, empty for regression: PredictProbability's columns (kmx_predictor_classes).</summary>
        public double[] ClassLabels()
        {
            var labels = new double[Classes];
            Native.KmxPredictorClasses(labels.Length == 0 ? null : labels, labels.Length, Handle); // regression: NULL
            return labels;
        }

        /// <summary>True if it carries its model's probability estimates: built from a model trained with Param.Probability = 1
        /// (PredictorInfoKey.PredictorProbability).</summary>
        public bool HasProbabilities => Info(PredictorInfoKey.PredictorProbability) != 0;

        /// <summary>The class probabilities, row-major rows × Classes in ClassLabels() order, each row summing to 1: the model's
        /// sigmoids on the predictor's decision values, as Model.PredictProbability on the model's (kmx_predictor_predict_probability).</summary>
        /// <remarks>A predictor without them raises KmxException saying so.</remarks>
        public double[] PredictProbability(Context ctx, Dataset data)
        {
            var values = new double[data.Rows * Classes];
            Native.KmxPredictorPredictProbability(values, values.Length, Context.OptionalHandle(ctx), Handle, data.Handle);
            return values;
        }
    }
}
