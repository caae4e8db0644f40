"""The modelling languages several tracks use: ATL (:mod:`.atl`), Ecore and KM3 metamodels (:mod:`.ecore`)
and OCL with USE's semantics (:mod:`.ocl`). They know nothing of the studies that use them."""
