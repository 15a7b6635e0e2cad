// The inspector page: posts a pasted response to /v1/inspect and draws the report and the decoded CBOR.
// Everything drawn comes from an untrusted response, so the DOM is built with createElement and textContent only;
// no styles are set from script (the page runs under a strict Content-Security-Policy): classes do it all.
(function () {
  'use strict';

  var FIELDS = ['merchantId', 'teamId', 'nonce', 'requestId', 'sessionTranscript', 'readerPrivateKey'];
  var ORDER = { fail: 0, warn: 1, pass: 2, skip: 3 };
  var FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;
  var DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
  var BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
  var inFlight = false;

  // Control characters (but tab and newline) and bidirectional controls, which would reorder what is shown: drawn as
  // visible escapes such as \u{202E} (the set the CLI escapes, less tab and newline).
  var INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g;

  function visible(text) {
    return String(text).replace(INVISIBLE, function (c) { return '\\u{' + c.charCodeAt(0).toString(16).toUpperCase() + '}'; });
  }

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = visible(text); }
    return node;
  }

  function append(parent) {
    for (var i = 1; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) { continue; }
      parent.appendChild(typeof child === 'string' ? document.createTextNode(visible(child)) : child);
    }
    return parent;
  }

  function list(value) { return Array.isArray(value) ? value : []; }
  function isObject(value) { return value !== null && typeof value === 'object' && !Array.isArray(value); }

  // ---- Form ----

  function showFields() {
    var format = $('format').value;
    document.querySelectorAll('.fields').forEach(function (group) {
      var formats = (group.getAttribute('data-for') || '').split(/\s+/);
      group.classList.toggle('hidden', formats.indexOf(format) < 0);
    });
  }

  function requestBody() {
    var body = { format: $('format').value, response: $('response').value.trim() };
    FIELDS.forEach(function (id) {
      var input = $(id);
      var group = input.closest('.fields');
      var value = input.value.trim();
      if (value && !(group && group.classList.contains('hidden'))) { body[id] = value; }
    });
    return body;
  }

  function toBase64(bytes) {
    var binary = '';
    for (var i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  }

  function readFile(file) {
    var reader = new FileReader();
    reader.onload = function () {
      var bytes = new Uint8Array(reader.result);
      var text = null;
      if (bytes.indexOf(0) < 0) {
        try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { text = null; }
      }
      $('response').value = text === null ? toBase64(bytes) : text.trim();
      $('response').focus();
    };
    reader.onerror = function () {
      showFailure('The file ' + file.name + ' could not be read' + (reader.error ? ': ' + reader.error.message : '.'));
    };
    reader.readAsArrayBuffer(file);
  }

  // ---- Samples: copies of the test vectors each note names (InspectorTests keeps them equal) ----

  var SAMPLES = {
    "apple-app": {
      note: "Apple's in-app sample (TestVectors/apple/in-app-sample): it verifies when this server decrypts with Apple's test merchant key, trusts Apple's test issuer root and verifies as of 2022-06-01 (verificationTime).",
      fields: {
        response: "a369616c676f726974686d6d4150504c452d48504b452d763166706172616d73a4646d6f64650064706b456d584104a302d29ad9476c921fa45af130509e27e5cce1f2271dbc9ca0eb65c4274096cccc3a838044735adbb15f54966ea9a725a78d7bcbecc5add7252ca4aeac0f86d767706b52486173685820b2c00f06b2df645691174f1331ade35141f17e19b3021d07560b4a71fc61818c68696e666f48617368582059a47fc9fa2402cfefa5e889183d4222cb15bb10807e53d90b4eef5eb9ff1d96646461746159181482da6314324c9e45b02435e1e5e33633a447acd67570b7c956ec620db0bbb1b6b1b869b06572769893aae8368da1b33d576b1b4e0f8a593ef6bc14af48ddb487100baf1b9b9b43d02b245f1ed098f2f2df16190236ffa82e8ad088bb1258f477333e4fae2e8ffbd62eec651cc6be6895550c6bc6f76c1b78eb352f5964d68c53ad2b8aca1100dac441e86deb891232237b6fcd2c64d676e04f7e987f07a7e09845d317bcfda90ad36544c16ced9305ca1ba89e4505773fd5716ecc75bb4dd1d65bdecd7037fcd3b5e9f72f1365e48aad43f95388436c25c1703a5fa3748c91adbfcba00ece1c2672e3378f90d70da19d5701befd0db4078525e4c23f0a4d82bd1fb44053725a45e8b71eec09978f656524b41ac99bd4221a72f060a7c2d206a2cec0f19242bfce1adea2b87db753948ded28852114576d3e935f4f5c7eef26ee9a9bd1965b02115a138e1fdf66a288e5f98a88c7adefbd67f451b7e24960dcca1cfcb7c7e7ae2bbfed82f52cdc37a1fe41f29bfcf201905f8f9e11a99c183dda57bfd794fa4b4d8f49b35348a1de6840ce68dee91ecae82fe6357f4eb5d42841b3f9f1413a6c076fb3aa41124ac2d90254f40030eadf537a141b1ca05008984c715d660c9b4993def36a0214f542776ec16e63471b54d326f65754ec55781e550c38256f98b2f9ad299be40f5e7ee178688eef4b9b55bb407e54b05bdb1ff7254c9da0b58be91a77e4f24e2af062e036829f7d79e8e4091350121ce773fa26d418786a8ead0f9f864f9866e981383256879dcf76cd8ef04d4fe460e6633ae12d8a9ba3bd43dd33bd6b02251f81805a5d0eeace4432f85d88b401afd94e61eb652d12430a7cd7cd063000f83d71ab7676cdcf5b4df29da637d79f4edb43b09dc007db2d335a396e7a67144368e6ec6ec1b323a877f6cd8f3660f9e38431fe2ad804eae12e2d01ddc3de82950c50f88f2e3cecd8746938c883018fcf1f33004331cb7e02be529f50cf5b70d9722a5468feb523fcfba9fc20da29b49058381e4fd4cf732d16719299a7f02240812228ac9ffdd367eec80dbfcd8099bac74a8e9e1da1411d51945ae52a1f3fad9d9d67ced00bd6280a263437f7fc46d82d5aa4944f23408a127e9a0c785d2f13a7e450994f9fd8f15062750221851d9e6d47cab7a1a2d09c2542c82c03d58fec2e61f87bfc5d9420e719836a9f15c661dcf6da788af1a6f85091f68048746ad7c128e105b90ffbc4cb37e0f073f177a291e478ae11015e8de22348913badab4ff493dcf8a514ef3c248942a32cd069a539efefb2974e302437c23ddfc29212b6d209ed53e3c5bf79ff17b432c39c98327d11c65cf5db565f24d9672436c4b7ab78b2ae94d1131139368ff9dc73c59e2b793c304df9a08cc464574abc0d2c80aebd5a6e36d1f8a03941c500935fe2d53d72237a2a46d5a0e0d2374b3fae16ba2d88a381890b87ad1f196a105009852b40223d840f472e6e46d5494b1f982d27bdb2da6c5511d180304dfe298a20728458a9fb58137026cd3ef54f8a263bda5df030661e19a0279a8d0b3beed7e98320972a3c9d03bfaa266a805647a5bf3862100379a10629d0b8312e60d3317b43166f48a33656677357fb32dffbd9d276925fbe61043cf3b7099850ac9dc37336b393fe7ee24fe1a552c547407dd5a095d1df4e9d0423505dce91555de41752a551571f0fc6e9062db984fcc7f1dd7f1f7c0a38c752e5ca93dcd5d440900b70060bdeb52c183dc6ef09b1a91c18633d317aa651b64ed398e0c3d7cb95384290880bd908e44738ec3e64cf44e5d2330ca4cb92ba3bf981b7caa7c4262bb8aae37156fb7b09bcedef9cd71be436ada17bcfb36806d68d29dbaf0a4b09836b5b1bc0d5ed1c398d229fcc2ea540e869ea924d976dfbf7768338158f2a22c6d65e460e962b0a5b754f3aebec2786a187036a4848468f12b959b4d4a9385d0c97b27fcf963a71e67a2b26263995fa71ac8f8d5ff6a9fd623379a6bc8db107d5bad4e9c4c6c5943b544f4bed17f0c06ea27325d2a48b5254957bde898fe87ade0328e39960172925ca3bf3bf22e64ab80c9452fae7a91ce021ddf17bc6fc2d0df868103c24bbc403d6580e26ddb3e40be4755e81456b5b42c34b335b3065c671a4e9625d5bea63492d109ea554abfc9175b88cb568786f8df6cac07cb21bb27c8524a911bacb6f085651f1b84a3eb010e266d85d420486ef995e64aad1c44edb3da4aed610156fa805b8274d5443ba84ae577c2619ffb86610930e34055b4ea9e036bd295aa7bc28ef7b62be7a2b40e2890d9a05c5e691deef1a78930fb57161adaf99d2183d82624a209aeb0bb961a61302ee82af9da76f94c15a918cafad830613fc9bb96c59c2a1100cbfb6e726f151f3af2b8d419c40559fb9e10fe5bc5aeaff2b7e9153ab02b46e845898e63e847eff4a896bffa908693cb74eddcec49d9457c173194dd2496d5641eb80cc5e88783ab0dd86e4e60c1ca7bf77a18584cca60da11120b777e826e25f3e214594e0036e63555f736585c13ea70eb48a2d94622fc0468eba99fd732ceceb6d2c53030527c95ea73a1e81e8ad727da21974a52d6801c67f4e27a0383d7e4d1701ffff037c06650968a20759f8b03d60425ca4c31196e607f2a87b936f5c97ec801c3e61ba5a5d9e7938f6feb937253e2f9c01f4fd02c232dee784a4e8f3dfe605be954742f456e0aa101e7dc2a921f01601bfb89b368a682402397e63691974b8a2e1464933eba5ef87eba2438940843698405c86084296873ca30693b6c75c38b8db486649efef997a6aa1f3185c01ab694bda90ee1ed9af1db487cacc822343ab89745542eaadbf544d0c98d81e9bd91f5256c9946f2db9018782f7782dc4725c5c5679ae6bf777a0f5e373efe0a4d87713c2bbdb668af9f687517989909417304a0d9b24fc4594bf3afaad0e0b2bd46f0fb2e4a915aa78207821a6925ba155e1ee07c6b26ca8beb70770b874ecdd7f234e8df64de515c1ec2592a37342431ead8bd9843577ba149cbf3623c35dd03f03a1462a640ee7d8c344d65c29a88670bdbf23a4e80e5c5e87fe8594a1b1cc0f77a2cac65ec1cef1f955eebe488305472b23d86e0f00803360aec35bdea0990f1d1bde54c07bee1dd17484d9721eea5e06b3e0ed8d9a2df21364eaf27fa2e2eb1d01ead2ed4ccdea08fab448090b8754c09ce5aeb0dab7dc4931535ab324db300694e408170f29447fa8b64b531cb2958a33accf6f37bf21f4c38603eb82b908dbbb2424ecde656484c02f8fa3b152848b1ca9bcf2cd838db2fb4e64e43148847d705ad37f47b38484035c6939bb67badba05afee83c0fe67b6010b477313c1cab3d7c7186ed7d7ae8aa12b90e0b0219052ac7bc968b1715c28ec3eebeecd11ce6e016a9a82fa08d506113a0cc0beaa3aae8c11e99df19bd732fad79348f86b9c1e694c0fdaea1bf188bc5f1474f9a0f5ac3e93cf409910b93145b8d64318f7b018fff3c2b7d5955cca850504ed497f34be892b966859da55ced25a15fc3327aa43d66d267ba4b8d9e912ba6ec40accb67d5668941c0283bc20b02674921c1f066aa1a2a3281a9c2e24424d8627138ed6d5912e1aab127fd5431fcd8529c2d84636148b5134b663313bbf62eef5bc986f702b03292e0a74beebb5ebf7db4b4c1b076c959035cd62c428211f186853372c613171093e8d29921a44137898350bf438a06fc62765acf28fae10e1f8a4b6647172498174367fd79fdb4a5d3ab08c146583add7e8bf38539be4cef1e9c71dd31d65ebef738bf4f9d358a24e957bdecf86c4786ddd7fed8db007e8aecf4aae9e34298c622a71b64e3f55883a055f1b7c9723fcecdce873ece71a736a5132115df668fa2ef47bf6ce4b8cfb20fcf34816660ea2452a70fb2be9fad8ddbdef0d0c4ab7174b7094c3f64a1057e552d58f9814c82f5fd6a834839d8043479085c3ea2fa701f12c703aa686de7b9e992ed9fdb34c32ffb574ba686ede51aceb5d4b23aff4bfb5a4f5ef5cf7911438ae23ec867cc9ce548f13e93555af31e978ebfa184016e5e6ccb55279c31a1022702a749eed6515ac70ff11ddad4aaff94787beca98d998b9a75d866d12d92e05ae2277ac76859319d039860755a3f3cb74ad67e04cd911bd2ea8e770f1e3bb22c2fb57c2077a227f18c585cd02bf227bd631f01a97dbb9bd0a4ce15e7a6915df83a9a03577c5fe42dd8e85321234e852b5339cb4bfa5485d4efb6671a29ee6b5ba15f440486ff779176856748da2bd9890510cd0873952a1e878757b17f3f3ff18b5693d7ec5610fddda34cedf626a15b71adcfc79aaf5dbb4c4b0b2bf944ff863662701a17a544828c8a2ac1faa1ac7f05ea0f0bac8df5f02825ba878b461ea55522aa3d7475caa0c32419184bbace253c0eae4b0b014e1a3a1ffce43342d0c96596786df51de74ca73d865300ef25d80d5b0d62a00ba8d0da143aa07c0ae6efc7bafd69eb235dd112f2f9b7861e3b9f59d0266d3a94a135dd26ce715235a5abcbe97585f9fc33b6b95fd9bc440c809ddac02c5c78f7f28c64823192a995d481c9a3bdd263b858e46b1c6ccee0c1348362f09023c1d9ac862aeca9fadafce2bb009b8fbaba39fb35b3ed30827bb45ba3a33a8a9106f4bd4c579f609a4d877fb1fec756c4e605d1e8586bcd3d91c84fea89d43d541a2b4036739d6673050e755734801061847cbe2612116c8ea73d61a0aba64aac28252048a81740b11b71fde9d49153f900071a112a3baeb218febcd58c69bbd5bcaeebf14ed3b39f55e33d948ea358f18c820f29351e3e2fc0f72df35ac51d7ca0e4143af94d89a0ffa98a9de7397344160dab751298ef98d97f031f2b1c58fdd7996c606fe7c17cb0799c697bec060bbccc7b66e5fb1d6ab9025329c85534a15b0a308d5731061c4db4bc1b8c515e8330740daf3bdabaa704044803eba3328913945a50661b5e27c7ead91a42f2dadc4f0835283ded72f03d74bd37c2d772cfc4e8b47dbae46ed6d2f577b1165a6f3ef84c5f48cb0744f44e3650a4e2497ea1d07aa2e1ff18a0d39ee9f837acde21e2a5e8a1ca4855a01b0a916905c948b82be7f93ed9fff4d2024da4e19a8b8f98ea9af132aa50b6026e73899a598171a5cc226748136e397aed1600492a86b9cf17ff0f648c16f92f8257bb2fc12717c9adbfc25d7d6f6c80cb5aa3b962f5c5f6167baf60daee3669cd94400d4c4d76f6187b0ce4fa01e08d89f58976d218406faf9c17a18817a753494dac86fe6df69c9353cad62f7ee4b8ac86882af80a384738e36f9cbfbcc7780064698ab4e3ea8743743a0b956566881895687224fe444d4108a1aaab4167de772be4070d1c88f6b11918da12a1c7fe0fce0ffb9913086728f02e05168ba0ac9d8dc18623000736d2f0e6254086c37bfa3b5437d5e6d280cff75977983616b610093650a50bc1d4ae16f0143ef3844ee7c3f7e953193887fd7e03ce9b61a1c239e243307adabb45ee639c9358f1f82921d3a2904a9ce54a21ad55daad5680b2078e67f491d654c6027afec04e6242ad34a74468c06100b8a8cea77338e327940045e35297c22c9f77ba40bfc49dde2ba0fbeb77bc88743f9cc27999dd4387b61280a643c5e76e3445ea7104ca75dc0bd6736684ac63e5e85b821d028f80091ae71de12c53b9fe053be4c0187f604eb10f48e8063de7d2323b66305f76a3b5cb15d0a40053d0535d9904754418792ff5040841f923423b363caa072e4f1c75a6c3fab4dffc4aa63f87a19372907ba7e24e67343079dd1829440ab712e975809cdde4048440797cc504f6af9638cd4e7460eaa6400f1e5ad267afa5fcc07e009b87f38f494e52418ed848d9059051fa4fc352a55efc13578463aa63055c0071e85ac29d9435ba0a4cc2002418f6abea1b254f778728852c83cc95de3b3d9f199fcde77e77db21111eda843e925ceffba38a1ba13284d1e91abe292fe825bfe16eb7f0bb7568603a9ad3c7fe02062a9f87e5fe7f29ffdc086a7d111e020a73ff968d6cf15f8e7c98d4cd348599626ae9a58bb65f76f5e6ba8f8f7a11bb167396fc67656d86bc17d54f45042610a2fd28075d7de1faa2a7a1b98f9a53d771ec0c6039b8b054fd3c79fd86cf79ab07cfdf05ff39d9bf70b9ba28bf196d00e5d25ac09d1b0ca248f42272ab8f852089f1e7a34c41c940ff9e53c67c287f0652d6370095855150fb743855c5eb01ebc93e5e5a6ccc053a43365846fe569461f29d838f32299f9bf0930652cded668ab816f3f19ff376bee9bd251e77f1730ae3365cdce0d85878e124f13cbe407ccbcf551ae4bf530eec469b41cc6c661d8462defed8204d4340a8de1f94c1922d1c40da975d123c2d75576f7d2c4c52085eb59d5668024f59b2f6cff527f75dab605ba6e99dd575355626e356543d805a5f1bb0fa5f6d18d21d2424f660ecd9d1304314cbf94dc96ef635049d1084366dcba4e4541b43bf41d9a6cd40320fff0e44d372c8fa146f28b7c8d07218be63d0c63d344bf7a55038d9a86ddde2f3e3dbd63880b631420971d87f82cd9a7c1e926372e7ff3d39cdc0dbff178ab3349b8956c75b889636203c6d45b37cb73a740339ba2e8b1f5d08ba47d47035748007cd59dfd7ef3d779a5e6945da3f0f1ee6bc55ca274528c3f0d55c0842d039c6fd210725a8d6ddd461ad6eca5f3e66ca83d4f9703bdb2f72e2ff1809b4c2fcc20f7f23df08a8909c248989af13ac37476a600bbd0ac90d8af8aabd93984d301ee78ebcaefc7a21361eb62ece3bb4d48e274edae30b032aeb229fc64af1f8c7eaf6bfdf7491244fcbb3b780d957dea64589a19e410c8138a07836ea1243eae6b043486dc8eaddd0e23ca8d305e28707dd81dfa7f33bc987d76fc34c1a0406f22edd768b096b0f4473b9a7cc4de0cc66240395174d04b74ae38b4aa97f9091739044b8d61f1682c233fe91d24e6cf0ad821c4f61d8959b750852219b808621d96ee27f7449eb4b8fea9829956c7f1a36cc670cb58e08eb95000a30e7ced66335e5f46ec7ca568a922596b4733d6c52b749ad0dfbe9ef381061ee8a64a82da7c511e6db8aa3ce71f9e9ce216d5670291d786bdc485b5e493abeb665ee7c8e84d9facad1f49e0465259f35cd9c11ee7f3ade126a857da6c1d0c9fad084db36b63c9e2c30cbab597171b3f48c962a5fda07b1ade492e74312b1f548c06027787c540aa19ae159e8a9b0f5f4af1ec4629ecb0f5dd43c9804106ab0aa638f77ec9dd0df0c95348403ddb60258cd6c68ade05b74644f5dd1010eaf1ea98065dda2e46f1a0f96ee57e8221b0cbfd9a73b68f1e9226e107ac5e69b4330b6a1bac98747420169c732512c33b86f385e8059ae1008543ab34e13204e30737ec1f5d87d5c2cc00516249c32650521c7e4f63d053ef673285c4b26a774c63b4dfe88a5e8e7c5cbb499e2cca979d802cad1f771125f83d2dc8582cb0d533b0ef9e695cb03c029d46752e79684aed41420ceaac06a7caeedc3a0c336abd5b7671cc5ebd9289f0ca1bbc95f6f5d93d5ad828ab89b374a861e0c90275982b95c28e36aefc300090c819ef1a5264ea57568617fff116b6efaf3f6115da1e82b8f7f60326751174dce1b1ea590a0612502fb1283dd03980d349c6d1d22814f78169cc31932273403cb21dc2d8584bf95738a3a8a3744e2bdd592a5f6aad623f2c7a408b48d5227f5c29aa06c063c0a8cfc77e5b254303a44fafe746a73371831badf294b1d9aee3e74c55f9c984dcc1c7f4c5cd808aa3051b7d2fb033b2fd112d41a372e9c7de2f157e5b97004d217b5f8cef883abc10fd4f26965644e394ec240a9058c794716ee2221e44c1ca85850b9bdcb196e4d6446c94f35bc74349f78f2baf57b7368ea077a41a65ca4d5c9c2ee4138cfbd4d861c75daf802f2a0ceac43205b8b586963a3457865da2c291eee88ce0a1bbbd0afc93a04752b95c23bbb5738052506754926670ec3855995332bf4832c004a3d8aa30bcace5273e0f7c6f77359378ac8a3276387fc6d5b862de7ab6ed1a98d30e83604318b7e17c34ffc8712fb4c99822dc199b2bf735fa6a939447f7f293f54dfac02c766b7f2fd999d451c58570cc0c8df6f7c172e486349b72e3b9711fc46529d1ba8552a6273ff02181ce41b761aadad10d885955c6661bb67d2dc8a401a5ad2712822490ad88f0486bb41692b61837561db14a4de358bda9676f5565bc26e0e9e5fce0b27c935e19bc19f9ab880748c3c8317a04d30f9505816180b1be8de9fb330c6cad771614826ab87a5b97d42f156f53a592823e9beae20896246b1d4584cc7862315f0f4de01abb9864691ca1c7fa96babf875402da609b5f29b67fedb7e630a294b7a43231aea9e3b61afb90feedb117db678f1ea9b1557d7e5eefdcc7dc3e72babcccb5b58a43f8d27c5d678176720af4265ec3fdc8e2dda6f895ba5eea86981df5e90040b57c1a57a5ee1a41c282be6b3cde0b072571ba6ecbf7d9fa16a1c8c64d23c3066aede1e47c09bed465c76e9fe87a090613a239b736ad10d811debc8753832c75b0afd4960ceaf777733b4d32050c23d945ee98c64dd9416d0eb0cba02665c0ebd101033ab0dd24cbfc09d8cc749ee8d3a020b2b655e5658dc193df5d03d0f5ae471dbab98b923e6605e88f4cb08845cb3f5f03349cc7bfa0dae",
        nonce: "964c3e56a06061fa213fce2ba73217a6d359c2e65d44ec6b5b94f9c57eeeb3c045906344c7032e2609eb60533c35a98a75d0d2444ef9057c55cbb2d05d672a25",
        merchantId: "PassKit_Identity_Test_Merchant_ID",
        teamId: "PassKit_Identity_Test_Team_ID"
      }
    },
    "device-response": {
      note: "ISO/IEC 18013-5 Annex D (TestVectors/iso18013-5/annex-d): the reader key filled in checks its deviceMac; the document verifies only against its test IACA (Certificates/test/iso18013-5-annex-d-utopia-iaca.pem) as of 2021-01-01.",
      fields: {
        response: "a36776657273696f6e63312e3069646f63756d656e747381a367646f6354797065756f72672e69736f2e31383031332e352e312e6d444c6c6973737565725369676e6564a26a6e616d65537061636573a1716f72672e69736f2e31383031332e352e3186d8185863a4686469676573744944006672616e646f6d58208798645b20ea200e19ffabac92624bee6aec63aceedecfb1b80077d22bfc20e971656c656d656e744964656e7469666965726b66616d696c795f6e616d656c656c656d656e7456616c756563446f65d818586ca4686469676573744944036672616e646f6d5820b23f627e8999c706df0c0a4ed98ad74af988af619b4bb078b89058553f44615d71656c656d656e744964656e7469666965726a69737375655f646174656c656c656d656e7456616c7565d903ec6a323031392d31302d3230d818586da4686469676573744944046672616e646f6d5820c7ffa307e5de921e67ba5878094787e8807ac8e7b5b3932d2ce80f00f3e9abaf71656c656d656e744964656e7469666965726b6578706972795f646174656c656c656d656e7456616c7565d903ec6a323032342d31302d3230d818586da4686469676573744944076672616e646f6d582026052a42e5880557a806c1459af3fb7eb505d3781566329d0b604b845b5f9e6871656c656d656e744964656e7469666965726f646f63756d656e745f6e756d6265726c656c656d656e7456616c756569313233343536373839d818590471a4686469676573744944086672616e646f6d5820d094dad764a2eb9deb5210e9d899643efbd1d069cc311d3295516ca0b024412d71656c656d656e744964656e74696669657268706f7274726169746c656c656d656e7456616c7565590412ffd8ffe000104a46494600010101009000900000ffdb004300130d0e110e0c13110f11151413171d301f1d1a1a1d3a2a2c2330453d4947443d43414c566d5d4c51685241435f82606871757b7c7b4a5c869085778f6d787b76ffdb0043011415151d191d381f1f38764f434f7676767676767676767676767676767676767676767676767676767676767676767676767676767676767676767676767676ffc00011080018006403012200021101031101ffc4001b00000301000301000000000000000000000005060401020307ffc400321000010303030205020309000000000000010203040005110612211331141551617122410781a1163542527391b2c1f1ffc4001501010100000000000000000000000000000001ffc4001a110101010003010000000000000000000000014111213161ffda000c03010002110311003f00a5bbde22da2329c7d692bc7d0d03f52cfb0ff75e7a7ef3e7709723a1d0dae146ddfbb3c039ce07ad2bd47a7e32dbb8dd1d52d6ef4b284f64a480067dfb51f87ffb95ff00eb9ff14d215de66af089ce44b7dbde9cb6890a2838eddf18078f7add62d411ef4db9b10a65d6b95a147381ea0d495b933275fe6bba75c114104a8ba410413e983dff004f5af5d34b4b4cde632d0bf1fd1592bdd91c6411f3934c2fa6af6b54975d106dcf4a65ae56e856001ebc03c7ce29dd9eef1ef10fc447dc9da76ad2aee93537a1ba7e4f70dd8eff0057c6dffb5e1a19854a83758e54528750946ec6704850cd037bceb08b6d7d2cc76d3317fc7b5cc04fb6707269c5c6e0c5b60ae549242123b0e493f602a075559e359970d98db89525456b51c951c8afa13ea8e98e3c596836783d5c63f5a61a99fdb7290875db4be88ab384bbbbbfc7183fdeaa633e8951db7da396dc48524fb1a8bd611a5aa2a2432f30ab420a7a6d3240c718cf031fa9ef4c9ad550205aa02951df4a1d6c8421b015b769db8c9229837ea2be8b1b0d39d0eba9c51484efdb8c0efd8d258daf3c449699f2edbd4584e7af9c64e3f96b9beb28d4ac40931e6478c8e76a24a825449501d867d2b1dcdebae99b9c752ae4ecd6dde4a179c1c1e460938f9149ef655e515c03919a289cb3dca278fb7bf177f4faa829dd8ce3f2ac9a7ecde490971fafd7dce15eed9b71c018c64fa514514b24e8e4f8c5c9b75c1e82579dc1233dfec08238f6add62d391acc1c5256a79e706d52d431c7a0145140b9fd149eb3a60dc5e88cbbc2da092411e9dc71f39a7766b447b344e847dcac9dcb5abba8d145061d43a6fcf1e65cf15d0e90231d3dd9cfe62995c6dcc5ca12a2c904a15f71dd27d451453e09d1a21450961cbb3ea8a956433b781f1ce33dfed54f0e2b50a2b71d84ed6db18028a28175f74fc6bda105c529a791c25c4f3c7a11f71586268f4a66b726e33de9ea6f1b52b181c760724e47b514520a5a28a283ffd9d81858ffa4686469676573744944096672616e646f6d58204599f81beaa2b20bd0ffcc9aa03a6f985befab3f6beaffa41e6354cdb2ab2ce471656c656d656e744964656e7469666965727264726976696e675f70726976696c656765736c656c656d656e7456616c756582a37576656869636c655f63617465676f72795f636f646561416a69737375655f64617465d903ec6a323031382d30382d30396b6578706972795f64617465d903ec6a323032342d31302d3230a37576656869636c655f63617465676f72795f636f646561426a69737375655f64617465d903ec6a323031372d30322d32336b6578706972795f64617465d903ec6a323032342d31302d32306a697373756572417574688443a10126a118215901f3308201ef30820195a00302010202143c4416eed784f3b413e48f56f075abfa6d87eb84300a06082a8648ce3d04030230233114301206035504030c0b75746f7069612069616361310b3009060355040613025553301e170d3230313030313030303030305a170d3231313030313030303030305a30213112301006035504030c0975746f706961206473310b30090603550406130255533059301306072a8648ce3d020106082a8648ce3d03010703420004ace7ab7340e5d9648c5a72a9a6f56745c7aad436a03a43efea77b5fa7b88f0197d57d8983e1b37d3a539f4d588365e38cbbf5b94d68c547b5bc8731dcd2f146ba381a83081a5301e0603551d120417301581136578616d706c65406578616d706c652e636f6d301c0603551d1f041530133011a00fa00d820b6578616d706c652e636f6d301d0603551d0e0416041414e29017a6c35621ffc7a686b7b72db06cd12351301f0603551d2304183016801454fa2383a04c28e0d930792261c80c4881d2c00b300e0603551d0f0101ff04040302078030150603551d250101ff040b3009060728818c5d050102300a06082a8648ce3d040302034800304502210097717ab9016740c8d7bcdaa494a62c053bbdecce1383c1aca72ad08dbc04cbb202203bad859c13a63c6d1ad67d814d43e2425caf90d422422c04a8ee0304c0d3a68d5903a2d81859039da66776657273696f6e63312e306f646967657374416c676f726974686d675348412d3235366c76616c756544696765737473a2716f72672e69736f2e31383031332e352e31ad00582075167333b47b6c2bfb86eccc1f438cf57af055371ac55e1e359e20f254adcebf01582067e539d6139ebd131aef441b445645dd831b2b375b390ca5ef6279b205ed45710258203394372ddb78053f36d5d869780e61eda313d44a392092ad8e0527a2fbfe55ae0358202e35ad3c4e514bb67b1a9db51ce74e4cb9b7146e41ac52dac9ce86b8613db555045820ea5c3304bb7c4a8dcb51c4c13b65264f845541341342093cca786e058fac2d59055820fae487f68b7a0e87a749774e56e9e1dc3a8ec7b77e490d21f0e1d3475661aa1d0658207d83e507ae77db815de4d803b88555d0511d894c897439f5774056416a1c7533075820f0549a145f1cf75cbeeffa881d4857dd438d627cf32174b1731c4c38e12ca936085820b68c8afcb2aaf7c581411d2877def155be2eb121a42bc9ba5b7312377e068f660958200b3587d1dd0c2a07a35bfb120d99a0abfb5df56865bb7fa15cc8b56a66df6e0c0a5820c98a170cf36e11abb724e98a75a5343dfa2b6ed3df2ecfbb8ef2ee55dd41c8810b5820b57dd036782f7b14c6a30faaaae6ccd5054ce88bdfa51a016ba75eda1edea9480c5820651f8736b18480fe252a03224ea087b5d10ca5485146c67c74ac4ec3112d4c3a746f72672e69736f2e31383031332e352e312e5553a4005820d80b83d25173c484c5640610ff1a31c949c1d934bf4cf7f18d5223b15dd4f21c0158204d80e1e2e4fb246d97895427ce7000bb59bb24c8cd003ecf94bf35bbd2917e340258208b331f3b685bca372e85351a25c9484ab7afcdf0d2233105511f778d98c2f544035820c343af1bd1690715439161aba73702c474abf992b20c9fb55c36a336ebe01a876d6465766963654b6579496e666fa1696465766963654b6579a40102200121582096313d6c63e24e3372742bfdb1a33ba2c897dcd68ab8c753e4fbd48dca6b7f9a2258201fb3269edd418857de1b39a4e4a44b92fa484caa722c228288f01d0c03a2c3d667646f6354797065756f72672e69736f2e31383031332e352e312e6d444c6c76616c6964697479496e666fa3667369676e6564c074323032302d31302d30315431333a33303a30325a6976616c696446726f6dc074323032302d31302d30315431333a33303a30325a6a76616c6964556e74696cc074323032312d31302d30315431333a33303a30325a584059e64205df1e2f708dd6db0847aed79fc7c0201d80fa55badcaf2e1bcf5902e1e5a62e4832044b890ad85aa53f129134775d733754d7cb7a413766aeff13cb2e6c6465766963655369676e6564a26a6e616d65537061636573d81841a06a64657669636541757468a1696465766963654d61638443a10105a0f65820e99521a85ad7891b806a07f8b5388a332d92c189a7bf293ee1f543405ae6824d6673746174757300",
        sessionTranscript: "d81859024183d8185858a20063312e30018201d818584ba4010220012158205a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa444b624343167fe225820b16e8cf858ddc7690407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc67d818584ba40102200121582060e3392385041f51403051f2415531cb56dd3f999c71687013aac6768bc8187e225820e58deb8fdbe907f7dd5368245551a34796f7d2215c440c339bb0f7b67beccdfa8258c391020f487315d10209616301013001046d646f631a200c016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f6230081b28128b37282801021c015c1e580469736f2e6f72673a31383031333a646576696365656e676167656d656e746d646f63a20063312e30018201d818584ba4010220012158205a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa444b624343167fe225820b16e8cf858ddc7690407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc6758cd91022548721591020263720102110204616301013000110206616301036e6663005102046163010157001a201e016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f6230081b28078080bf2801021c021107c832fff6d26fa0beb34dfcd555d4823a1c11010369736f2e6f72673a31383031333a6e66636e6663015a172b016170706c69636174696f6e2f766e642e7766612e6e616e57030101032302001324fec9a70b97ac9684a4e326176ef5b981c5e8533e5f00298cfccbc35e700a6b020414",
        readerPrivateKey: "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3jtLnl9y3ZtYQGrj\nCRQ02kim+f0BDYj8sJWOLOvslHyhRANCAARg4zkjhQQfUUAwUfJBVTHLVt0/mZxx\naHATqsZ2i8gYfuWN64/b6Qf33VNoJFVRo0eW99IhXEQMM5uw97Z77M36\n-----END PRIVATE KEY-----"
      }
    }
  };

  // Fills the sample of the chosen format (Apple's for a format without one) and says what it needs to verify.
  function loadSample() {
    if (!SAMPLES[$('format').value]) { $('format').value = 'apple-app'; }
    var sample = SAMPLES[$('format').value];
    clearResult();
    ['response'].concat(FIELDS).forEach(function (id) { $(id).value = sample.fields[id] || ''; });
    showFields();
    var note = $('sample-note');
    note.textContent = sample.note;
    note.classList.remove('hidden');
  }

  // ---- Values ----

  function dateNode(text) {
    var date = new Date(text);
    if (isNaN(date.getTime())) { return null; }
    var readable = FULL_DATE.test(text)
      ? date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' })
      : date.toLocaleString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric',
          hour: '2-digit', minute: '2-digit', second: '2-digit' }) + ' UTC';
    var time = el('time', 'date', readable);
    time.setAttribute('datetime', text);
    time.title = text;
    return time;
  }

  function isImageElement(name) { return /^(portrait|signature_usual_mark)$|_image$/.test(name); }

  function imageNode(name, text) {
    var base64 = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
    if (!BASE64.test(base64)) { return null; }
    var type = base64.indexOf('/9j/') === 0 ? 'image/jpeg' : base64.indexOf('AAAADGpQ') === 0 ? 'image/jp2' : null;
    if (!type) { return null; }
    var img = el('img', 'portrait');
    img.alt = name + ' (' + type + ')';
    img.src = 'data:' + type + ';base64,' + base64;
    return img;
  }

  function valueNode(name, value, depth) {
    if (typeof value === 'string') {
      if (value === '') { return el('span', 'null', '(empty)'); }
      var special = (isImageElement(name) && imageNode(name, value)) ||
        ((FULL_DATE.test(value) || DATE_TIME.test(value)) && dateNode(value));
      return special || el('span', 'text', value);
    }
    if (typeof value === 'boolean') { return el('span', 'bool', value ? 'yes' : 'no'); }
    if (typeof value === 'number') { return el('span', 'number', value); }
    if (value === null || value === undefined) { return el('span', 'null', 'null'); }
    if (depth >= 4) { return el('pre', 'json', JSON.stringify(value, null, 2)); }
    if (Array.isArray(value) && value.length === 0) { return el('span', 'null', '[]'); }
    var table = el('table', 'nested');
    var keys = Array.isArray(value) ? value.map(function (_, i) { return i; }) : Object.keys(value);
    if (keys.length === 0) { return el('span', 'null', '{}'); }
    keys.forEach(function (key) {
      var row = el('tr');
      var cell = el('td');
      append(row, el('td', 'mono key', Array.isArray(value) ? '[' + key + ']' : key),
        append(cell, valueNode(String(key), value[key], depth + 1)));
      table.appendChild(row);
    });
    return table;
  }

  // ---- Report ----

  function errorLine(code, message) {
    return append(el('li', 'error'), el('span', 'error-code', code), ' ', el('span', 'error-message', message));
  }

  function verdictNode(report) {
    var verdict = el('div', 'verdict ' + (report.verified ? 'verified' : 'rejected'));
    verdict.id = 'verdict';
    append(verdict, el('strong', null, report.verified ? 'VERIFIED' : 'REJECTED'),
      ' · ' + (report.format || '?') + ' · ' + (report.assurance || '?') + ' assurance');
    return verdict;
  }

  function checksTable(checks) {
    var table = el('table', 'checks');
    table.id = 'checks';
    var head = el('tr');
    ['status', 'id', 'detail', 'clause'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    append(table, append(el('thead'), head));
    var body = el('tbody');
    var rank = function (c) { return ORDER.hasOwnProperty(c.status) ? ORDER[c.status] : 4; };
    checks.filter(isObject)
      .map(function (c, i) { return { check: c, index: i }; })
      .sort(function (a, b) { return (rank(a.check) - rank(b.check)) || (a.index - b.index); })
      .forEach(function (entry) {
        var c = entry.check;
        var status = String(c.status || 'unknown');
        var row = el('tr', 'check status-' + status.replace(/[^a-z]/g, ''));
        append(row, append(el('td', 'status'), el('span', 'status-word', status)),
          el('td', 'mono id', c.id), el('td', 'detail', c.detail), el('td', 'clause', c.clause));
        body.appendChild(row);
      });
    return append(table, body);
  }

  function checkCounts(checks) {
    var counts = {};
    checks.forEach(function (c) { if (isObject(c)) { counts[c.status] = (counts[c.status] || 0) + 1; } });
    return ['fail', 'warn', 'pass', 'skip'].filter(function (s) { return counts[s]; })
      .map(function (s) { return counts[s] + ' ' + s; }).join(', ');
  }

  function definition(dl, term, value) {
    if (value === undefined || value === null || value === '') { return; }
    append(dl, el('dt', null, term), append(el('dd'), typeof value === 'string' ? valueNode('', value, 0) : value));
  }

  function documentNode(doc) {
    var section = el('section', 'document');
    section.appendChild(el('h3', 'mono doctype', doc.docType || '(no docType)'));
    var dl = el('dl', 'facts');
    var issuer = isObject(doc.issuer) ? doc.issuer : {};
    var validity = isObject(doc.validity) ? doc.validity : {};
    definition(dl, 'Document signer', issuer.documentSigner);
    definition(dl, 'Root', issuer.root);
    if (issuer.validFrom || issuer.validUntil) {
      definition(dl, 'Signer certificate valid', append(el('span'), valueNode('', issuer.validFrom || '?', 0), ' – ',
        valueNode('', issuer.validUntil || '?', 0)));
    }
    if (issuer.anchor !== undefined && issuer.anchor !== null) { definition(dl, 'Trust anchor', valueNode('anchor', issuer.anchor, 2)); }
    definition(dl, 'Signed', validity.signed);
    if (validity.validFrom || validity.validUntil) {
      definition(dl, 'Valid', append(el('span'), valueNode('', validity.validFrom || '?', 0), ' – ',
        valueNode('', validity.validUntil || '?', 0)));
    }
    definition(dl, 'Expected update', validity.expectedUpdate);
    section.appendChild(dl);
    var elements = isObject(doc.elements) ? doc.elements : {};
    Object.keys(elements).forEach(function (namespace) {
      section.appendChild(el('h4', 'mono namespace', namespace));
      var table = el('table', 'elements');
      var items = isObject(elements[namespace]) ? elements[namespace] : {};
      Object.keys(items).forEach(function (name) {
        var row = el('tr', 'element');
        append(row, el('td', 'mono identifier', name), append(el('td', 'value'), valueNode(name, items[name], 0)));
        table.appendChild(row);
      });
      section.appendChild(table);
    });
    return section;
  }

  // ---- CBOR (the tree `mdocverify inspect` prints: {label, summary, children}) ----

  function cborNode(node, depth) {
    if (!isObject(node)) { return el('div', 'cbor-line', '?'); }
    var head = [node.label ? el('span', 'cbor-key', String(node.label)) : null,
      node.label && node.summary ? ': ' : null, node.summary ? el('span', 'cbor-value', String(node.summary)) : null];
    var children = list(node.children).filter(isObject);
    if (!children.length) { return append.apply(null, [el('div', 'cbor-line')].concat(head)); }
    var details = el('details', 'cbor-node');
    details.open = depth < 2;
    details.appendChild(append.apply(null, [el('summary')].concat(head)));
    children.forEach(function (child) { details.appendChild(cborNode(child, depth + 1)); });
    return details;
  }

  // ---- Result ----

  function clearResult() {
    var result = $('result');
    result.textContent = '';
    result.classList.remove('pending');
    return result;
  }

  function showFailure(message) {
    append(clearResult(), el('p', 'failure', message));
  }

  function showRefusal(status, error) {
    var result = clearResult();
    result.appendChild(el('p', 'refused', 'The server refused the request (HTTP ' + status + ').'));
    var code = error && error.code ? String(error.code) : 'http.' + status;
    var message = error && error.message ? String(error.message) : 'The answer carried no error description.';
    result.appendChild(append(el('ul', 'errors'), errorLine(code, message)));
  }

  function render(answer) {
    var result = clearResult();
    var report = answer.report;
    result.appendChild(verdictNode(report));
    var errors = list(report.errors).filter(isObject);
    if (!report.verified && errors.length) {
      var ul = el('ul', 'errors');
      errors.forEach(function (e) { ul.appendChild(errorLine(e.code, e.message)); });
      result.appendChild(ul);
    }
    var checks = list(report.checks);
    result.appendChild(append(el('h2', null, 'Checks'), el('span', 'counts', checkCounts(checks))));
    result.appendChild(checksTable(checks));
    var documents = list(report.documents).filter(isObject);
    var section = el('section', 'documents');
    section.id = 'documents';
    append(section, el('h2', null, 'Documents'));
    if (!documents.length) { section.appendChild(el('p', 'none', 'No document was returned.')); }
    documents.forEach(function (doc) { section.appendChild(documentNode(doc)); });
    result.appendChild(section);
    if (isObject(answer.cbor)) {
      result.appendChild(el('h2', null, 'Decoded CBOR (DeviceResponse)'));
      var cbor = el('div', 'cbor');
      cbor.id = 'cbor';
      cbor.appendChild(cborNode(answer.cbor, 0));
      result.appendChild(cbor);
    }
  }

  function verify() {
    if (inFlight) { return; }
    inFlight = true;
    var button = $('verify');
    button.disabled = true;
    button.textContent = 'Verifying…';
    var result = clearResult();
    result.classList.add('pending');
    result.appendChild(el('p', 'pending-note', 'Verifying…'));
    fetch('/v1/inspect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requestBody()) })
      .then(function (response) {
        return response.json().then(function (json) { return { status: response.status, json: json }; },
          function () { return { status: response.status, json: null }; });
      })
      .then(function (answer) {
        if (answer.status === 200 && isObject(answer.json) && isObject(answer.json.report)) {
          render(answer.json);
        } else if (answer.status === 404 && !(isObject(answer.json) && answer.json.error)) {
          showFailure('The server answered 404: the inspector is off (it needs inspector: true in test mode).');
        } else {
          showRefusal(answer.status, isObject(answer.json) && isObject(answer.json.error) ? answer.json.error : null);
        }
      })
      .catch(function (e) {
        showFailure('The server could not be reached (' + (e && e.message ? e.message : 'network error') + '). Is verify-server running?');
      })
      .then(function () {
        inFlight = false;
        button.disabled = false;
        button.textContent = 'Verify';
      });
  }

  function start() {
    $('format').addEventListener('change', showFields);
    $('verify').addEventListener('click', verify);
    $('sample').addEventListener('click', loadSample);
    $('clear').addEventListener('click', function () {
      $('form').reset();
      $('sample-note').classList.add('hidden');
      clearResult();
      showFields();
      $('response').focus();
    });
    $('response').addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        verify();
      }
    });
    $('file').addEventListener('change', function () {
      if (this.files && this.files[0]) { readFile(this.files[0]); }
    });
    var drop = $('drop');
    // A file dropped anywhere on the page is read (rather than opened by the browser in place of the page).
    // Text dragged into the textarea is left to the browser.
    var carriesFiles = function (event) {
      var types = event.dataTransfer ? Array.prototype.slice.call(event.dataTransfer.types || []) : [];
      return types.indexOf('Files') >= 0;
    };
    document.addEventListener('dragover', function (event) {
      if (!carriesFiles(event)) { return; }
      event.preventDefault();
      drop.classList.add('over');
    });
    document.addEventListener('dragleave', function (event) {
      if (!event.relatedTarget) { drop.classList.remove('over'); }
    });
    document.addEventListener('drop', function (event) {
      drop.classList.remove('over');
      if (!carriesFiles(event)) { return; }
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (files && files[0]) { readFile(files[0]); }
    });
    showFields();
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
